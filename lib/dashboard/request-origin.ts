import { headers } from "next/headers";
import { publicOrigin } from "@/lib/config";

/** The origin the developer reached the dashboard at, for the copy-paste lines it shows (curl, Connect links). */
export async function dashboardOrigin(): Promise<string> {
  const requestHeaders = await headers();
  const host = requestHeaders.get("host") ?? "localhost:3000";
  const proto = requestHeaders.get("x-forwarded-proto") === "https" ? "https" : "http";
  return publicOrigin(`${proto}://${host}`);
}
