import type { ReactNode } from "react";
import { requireEnrolment } from "@/lib/dashboard";

/**
 * An account that must have a second factor (issue 57) enrols before this section: checked here, outside the
 * section's loading boundary, so the redirect is the response itself rather than one streamed to the browser.
 */
export default async function EnrolledSectionLayout({ children, params }: { children: ReactNode; params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  await requireEnrolment(`/dashboard/${encodeURIComponent(appId)}/keys`);
  return children;
}
