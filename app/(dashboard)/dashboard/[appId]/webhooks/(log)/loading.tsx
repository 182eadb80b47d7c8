import { LoadingPanel } from "@/components/ui/skeleton";

export default function WebhooksLoading() {
  return <LoadingPanel label="Loading webhooks" rows={6} />;
}
