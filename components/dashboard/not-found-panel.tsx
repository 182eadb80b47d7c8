import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

/**
 * What a dashboard "not found" says: the same for what does not exist and for what the developer may not see. It
 * stands in for the whole page, so its title is the page's h1.
 */
export function NotFoundPanel({ title, summary = "Nothing to show here", description }: { title: string; summary?: string; description: string }) {
  return (
    <div className="space-y-4">
      {/* The page's own metadata title ("Overview", "Webhook delivery") was resolved before the lookup failed. */}
      <title>{`${title} · Chartkey`}</title>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      <EmptyState
        title={summary}
        description={description}
        action={
          <Link className={buttonClass("secondary")} href="/dashboard">
            Back to your applications
          </Link>
        }
      />
    </div>
  );
}
