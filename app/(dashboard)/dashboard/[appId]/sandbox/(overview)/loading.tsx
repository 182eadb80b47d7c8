import { LoadingPanel } from "@/components/ui/skeleton";

export default function SandboxLoading() {
  return <LoadingPanel label="Loading the sandbox" rows={8} />;
}
