"use client";

import { ErrorPanel } from "@/components/ui/error-panel";

// `retry` fetches the page from the server again; a bare `reset` would re-render the same failed server answer.
export default function SandboxError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return <ErrorPanel page title="The sandbox could not be loaded" message="Nothing was changed. Try again in a moment." digest={error.digest} retry={retry} />;
}
