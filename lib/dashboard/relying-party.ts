import { headers } from "next/headers";
import type { RelyingParty } from "@/lib/account-security";
import { publicOrigin } from "@/lib/config";

type HeaderReader = { get(name: string): string | null };

/**
 * The WebAuthn relying party of a dashboard request: the origin the browser is on (CHARTKEY_PUBLIC_URL when set,
 * else the request's Host) and its host name as the RP ID. A passkey is bound to it.
 */
export function relyingPartyOf(requestHeaders: HeaderReader): RelyingParty {
  const host = requestHeaders.get("host") ?? "localhost:3000";
  const proto = requestHeaders.get("x-forwarded-proto") === "https" ? "https" : "http";
  const origin = publicOrigin(`${proto}://${host}`);
  return { id: new URL(origin).hostname, origin };
}

export async function requestRelyingParty(): Promise<RelyingParty> {
  return relyingPartyOf(await headers());
}
