import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

// What a developer sees for an application that does not exist, was deleted, or that they are not a member of:
// the same page in all three cases, so an id reveals nothing.
export default function ApplicationNotFound() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Application not found</h1>
      <EmptyState
        title="Nothing here for your account"
        description="It does not exist, it was deleted, or your account is not a member of it."
        action={
          <Link className={buttonClass("secondary")} href="/dashboard">
            Back to your applications
          </Link>
        }
      />
    </div>
  );
}
