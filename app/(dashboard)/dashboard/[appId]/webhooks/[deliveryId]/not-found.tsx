import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export default function DeliveryNotFound() {
  return (
    <EmptyState
      title="Delivery not found"
      description="It does not exist, or it belongs to an application your account is not a member of."
      action={
        <Link className={buttonClass("secondary")} href="/dashboard">
          Back to your applications
        </Link>
      }
    />
  );
}
