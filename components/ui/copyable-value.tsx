import { CopyButton } from "./copy-button";

/**
 * A value a developer pastes elsewhere (an id, a URL, a request id): shown in monospace, wrapping anywhere so a
 * phone never scrolls sideways, with a copy button that says what it copied.
 */
export function CopyableValue({ value, what }: { value: string; what: string }) {
  return (
    <span className="inline-flex min-w-0 max-w-full items-start gap-2 align-top">
      <code className="min-w-0 break-all pt-1 font-mono text-xs text-slate-900">{value}</code>
      <CopyButton value={value} what={what} />
    </span>
  );
}
