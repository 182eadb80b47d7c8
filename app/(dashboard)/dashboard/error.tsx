"use client";

import { ErrorPanel } from "@/components/ui/error-panel";

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorPanel page message="This page could not be loaded. Nothing was changed; try again in a moment." digest={error.digest} retry={reset} />;
}
