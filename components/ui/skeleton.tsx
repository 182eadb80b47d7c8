/** Placeholder blocks while a page or panel loads; announced once as loading. */
export function Skeleton({ className = "h-4 w-full" }: { className?: string }) {
  return <div aria-hidden="true" className={`animate-pulse rounded bg-slate-200 ${className}`} />;
}

/** A loading boundary's stand-in for a whole page: its label is the page's h1 until the page arrives. */
export function LoadingPanel({ label = "Loading", rows = 4 }: { label?: string; rows?: number }) {
  return (
    <div role="status" aria-live="polite" className="space-y-3 rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="sr-only">{label}…</h1>
      <Skeleton className="h-5 w-1/3" />
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-4 w-full" />
      ))}
    </div>
  );
}
