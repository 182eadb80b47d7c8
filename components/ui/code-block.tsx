import { CopyButton } from "./copy-button";

/** Monospace text a developer copies (a key, a curl line, a payload), with its copy button. */
export function CodeBlock({ code, what = "Code", label }: { code: string; what?: string; label?: string }) {
  return (
    <div className="relative">
      {label ? <p className="mb-1 text-xs font-medium text-slate-700">{label}</p> : null}
      <div className="flex items-start gap-2 rounded-md bg-slate-900 p-3">
        <pre className="min-w-0 flex-1 overflow-x-auto whitespace-pre-wrap break-all font-mono text-xs text-slate-100" tabIndex={0}>
          {code}
        </pre>
        <CopyButton value={code} what={what} onDark />
      </div>
    </div>
  );
}
