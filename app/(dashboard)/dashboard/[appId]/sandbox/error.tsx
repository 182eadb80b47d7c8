"use client";

import { ErrorPanel } from "@/components/ui/error-panel";

export default function SandboxError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorPanel page title="The sandbox could not be loaded" message="Nothing was changed. Try again in a moment." digest={error.digest} retry={reset} />;
}
