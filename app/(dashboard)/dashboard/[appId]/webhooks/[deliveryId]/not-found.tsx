import { NotFoundPanel } from "@/components/dashboard/not-found-panel";

export default function DeliveryNotFound() {
  return <NotFoundPanel title="Delivery not found" description="It does not exist, or it belongs to an application your account is not a member of." />;
}
