import { headers } from "next/headers";
import { platformOrigin, publicOrigin } from "@/lib/config";

/** The origin the developer reached the dashboard at, for the links it hands out (Connect URLs), as the API does. */
export async function requestOrigin(): Promise<string> {
  const incoming = await headers();
  const host = incoming.get("x-forwarded-host") ?? incoming.get("host");
  const protocol = incoming.get("x-forwarded-proto")?.split(",")[0]?.trim() || "http";
  return publicOrigin(host ? `${protocol}://${host}` : platformOrigin());
}
