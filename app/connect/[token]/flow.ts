import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { publicOrigin } from "@/lib/config";
import { flowState, type FlowState } from "@/lib/connect";
import { ApiError } from "@/lib/http";

/**
 * The flow state for a page, or off to the link's entry route, which answers an expired or unknown link with its
 * 410 or 404 page and sends an ended session to its done page.
 */
export async function pageState(token: string, expect: "pending" | "any" = "pending"): Promise<FlowState> {
  let state: FlowState;
  try {
    state = await flowState(token);
  } catch (error) {
    if (error instanceof ApiError) redirect(`/connect/${token}`);
    throw error;
  }
  if (expect === "pending" && state.session.status !== "pending") redirect(`/connect/${token}/done`);
  return state;
}

/** The origin the patient reached the flow at (or the configured public one), for links the flow hands out. */
export async function flowOrigin(): Promise<string> {
  const requestHeaders = await headers();
  const host = requestHeaders.get("host") ?? "localhost";
  const protocol = requestHeaders.get("x-forwarded-proto") === "https" ? "https" : "http";
  return publicOrigin(`${protocol}://${host}`);
}
