"use server";

import { redirect } from "next/navigation";
import { revokeByLink } from "@/lib/connect";

export async function revokeAction(token: string): Promise<void> {
  await revokeByLink(token);
  redirect(`/consent/${token}?revoked=1`);
}
