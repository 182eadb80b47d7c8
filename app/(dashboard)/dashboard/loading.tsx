import { LoadingPanel } from "@/components/ui/skeleton";

export default function Loading() {
  return <LoadingPanel label="Loading the dashboard" rows={6} />;
}
