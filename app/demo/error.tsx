"use client";

import { ErrorPanel } from "@/components/ui/error-panel";

/** A demo page that failed to render: say so, and offer to try again (the raw API may still answer). */
export default function DemoError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <ErrorPanel page title="The demo could not be shown" message="Something went wrong rendering this page. The demo API at /demo/v1 may still answer." retry={retry} digest={error.digest} />
    </main>
  );
}
