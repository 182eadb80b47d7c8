import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

/** What a dashboard "not found" says: the same for what does not exist and for what the developer may not see. */
export function NotFoundPanel({ title, description }: { title: string; description: string }) {
  return (
    <EmptyState
      title={title}
      description={description}
      action={
        <Link className={buttonClass("secondary")} href="/dashboard">
          Back to your applications
        </Link>
      }
    />
  );
}
