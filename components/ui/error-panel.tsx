"use client";

import { Button } from "./button";

/**
 * What a failed page or panel shows: what went wrong in plain words, and a way to try again. An error boundary's
 * panel stands in for the whole page, so there (`page`) its title is the page's h1.
 */
export function ErrorPanel(props: { title?: string; message?: string; retry?: () => void; digest?: string; page?: boolean }) {
  const { title = "Something went wrong", message, retry, digest, page = false } = props;
  const Title = page ? "h1" : "p";
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6">
      <Title className="font-semibold text-red-900">{title}</Title>
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
