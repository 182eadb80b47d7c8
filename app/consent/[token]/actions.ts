"use server";

import { redirect } from "next/navigation";
import { deleteCopyByLink, revokeByLink } from "@/lib/connect";

export async function revokeAction(token: string): Promise<void> {
  await revokeByLink(token);
  redirect(`/consent/${token}?revoked=1`);
}

/** The patient's request to delete Chartkey's copy (stopping sharing first if needed); the page then says when it was done. */
export async function deleteAction(token: string): Promise<void> {
  await deleteCopyByLink(token);
  redirect(`/consent/${token}`);
}
