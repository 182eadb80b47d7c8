import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { buttonClass } from "@/components/ui/button";

export default function ApplicationNotFound() {
  return (
    <EmptyState
      title="Application not found"
      description="It does not exist, it was deleted, or your account is not a member of it."
      action={
        <Link className={buttonClass("secondary")} href="/dashboard">
          Back to your applications
        </Link>
      }
    />
  );
}
