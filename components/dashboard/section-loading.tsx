import { LoadingPanel } from "@/components/ui/skeleton";

/**
 * What an application's section shows while it loads. Each section has its own `loading.tsx` (the overview's in the
 * `(overview)` route group) rather than one for the whole application: a loading boundary streams the page's
 * shell at once, so a page below it that decides "not found" (a delivery, a sandbox subject or session of another
 * application) could no longer answer with a 404 status. The detail pages therefore have none.
 */
export function SectionLoading() {
  return <LoadingPanel label="Loading" rows={6} />;
}
