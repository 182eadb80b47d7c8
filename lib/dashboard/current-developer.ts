import { redirect } from "next/navigation";
import { cache } from "react";
import { db } from "@/lib/db";
import { auth } from "./auth";
import { SIGN_IN_PATH } from "@/lib/session";

export type SignedInDeveloper = { id: string; email: string; name: string };

/** The signed-in developer of this request, read once per render; null when signed out or the account is gone. */
export const currentDeveloper = cache(async (): Promise<SignedInDeveloper | null> => {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  return db().developer.findUnique({ where: { id }, select: { id: true, email: true, name: true } });
});

/** For pages and server actions that need a developer: signed-out visitors go to the sign-in page. */
export async function requireDeveloper(): Promise<SignedInDeveloper> {
  const developer = await currentDeveloper();
  if (!developer) redirect(SIGN_IN_PATH);
  return developer;
}
