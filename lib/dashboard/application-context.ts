import { notFound } from "next/navigation";
import { cache } from "react";
import { db } from "@/lib/db";
import { requireDeveloper, type SignedInDeveloper } from "./current-developer";

export type ApplicationRole = "owner" | "member";

export type ApplicationContext = {
  developer: SignedInDeveloper;
  role: ApplicationRole;
  application: {
    id: string;
    name: string;
    status: "sandbox" | "active" | "suspended";
    productionEnabled: boolean;
    categoryAllowlist: string[];
    syncMode: "one_time" | "continuous";
    webhookUrl: string | null;
    redirectUrls: string[];
    createdAt: Date;
  };
};

/**
 * The application a dashboard page or action works on, for the signed-in developer. An application they have no
 * part in is "not found", exactly like one that does not exist, so ids reveal nothing.
 */
export const requireApplication = cache(async (applicationId: string): Promise<ApplicationContext> => {
  const developer = await requireDeveloper();
  const application = await db().application.findFirst({
    where: { id: applicationId, developerId: developer.id },
    select: {
      id: true,
      name: true,
      status: true,
      productionEnabled: true,
      categoryAllowlist: true,
      syncMode: true,
      webhookUrl: true,
      redirectUrls: true,
      createdAt: true,
    },
  });
  if (!application) notFound();
  return { developer, role: "owner", application };
});
