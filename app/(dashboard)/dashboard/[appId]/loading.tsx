import { LoadingPanel } from "@/components/ui/skeleton";

// Below the application's layout on purpose: the layout decides "not found" before anything streams, so a
// stranger's request for another developer's application gets a real 404 status.
export default function Loading() {
  return <LoadingPanel label="Loading" rows={6} />;
}
