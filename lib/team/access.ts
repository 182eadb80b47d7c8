import { db } from "@/lib/db";
import { idPattern } from "@/lib/ids";
import type { ApplicationRole } from "./permissions";

/** The application columns an access carries (Prisma `select`), for readers that return an AccessibleApplication. */
export const ACCESSIBLE_APPLICATION_FIELDS = {
  id: true,
  name: true,
  status: true,
  productionEnabled: true,
  categoryAllowlist: true,
  syncMode: true,
  webhookUrl: true,
  redirectUrls: true,
  developerId: true,
  createdAt: true,
  updatedAt: true,
} as const;

export type AccessibleApplication = {
  id: string;
  name: string;
  status: "sandbox" | "active" | "suspended";
  productionEnabled: boolean;
  categoryAllowlist: string[];
  syncMode: "one_time" | "continuous";
  webhookUrl: string | null;
  redirectUrls: string[];
  /** The creator. */
  developerId: string;
  createdAt: Date;
  updatedAt: Date;
};

/** A signed-in developer's access to one application; every dashboard action starts from one. */
export type ApplicationAccess = { developerId: string; application: AccessibleApplication; role: ApplicationRole };

const APPLICATION_ID = idPattern("app_");

/**
 * The developer's access to the application, or null when they are not a member (or it does not exist): callers
 * answer 404 either way, so whether an application exists never leaks.
 */
export async function getApplicationAccess(developerId: string, applicationId: string): Promise<ApplicationAccess | null> {
  // The id comes from a URL or a server action's arguments: one not shaped like an application id (a NUL byte, which
  // PostgreSQL refuses, or any other junk) names no application, and is not sent to the database.
  if (!APPLICATION_ID.test(applicationId)) return null;
  const membership = await db().applicationMember.findUnique({
    where: { applicationId_developerId: { applicationId, developerId } },
    select: { role: true, application: { select: ACCESSIBLE_APPLICATION_FIELDS } },
  });
  if (!membership) return null;
  return { developerId, application: membership.application, role: membership.role };
}

/** The developer's applications with their role, newest first. */
export async function listApplicationsFor(developerId: string): Promise<Array<AccessibleApplication & { role: ApplicationRole }>> {
  const memberships = await db().applicationMember.findMany({
    where: { developerId },
    select: { role: true, application: { select: ACCESSIBLE_APPLICATION_FIELDS } },
    orderBy: [{ application: { createdAt: "desc" } }, { applicationId: "desc" }],
  });
  return memberships.map(({ role, application }) => ({ ...application, role }));
}
