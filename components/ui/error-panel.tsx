"use client";

import { Button } from "./button";

/** What a failed page or panel shows: what went wrong in plain words, and a way to try again. */
export function ErrorPanel({ title = "Something went wrong", message, retry, digest }: { title?: string; message?: string; retry?: () => void; digest?: string }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6">
      <p className="font-semibold text-red-900">{title}</p>
      <p className="mt-1 text-sm text-red-800">{message ?? "The page could not be loaded. Your data is unchanged."}</p>
      {digest ? <p className="mt-1 font-mono text-xs text-red-800">Reference: {digest}</p> : null}
      {retry ? (
        <Button variant="secondary" size="sm" className="mt-4" onClick={retry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}
