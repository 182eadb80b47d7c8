"use client";

import { ErrorPanel } from "@/components/ui/error-panel";

// `retry` fetches the page from the server again; a bare `reset` would re-render the same failed server answer.
export default function DashboardError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return <ErrorPanel page message="This page could not be loaded. Nothing was changed; try again in a moment." digest={error.digest} retry={retry} />;
}
