import { Badge } from "@/components/ui/badge";

/** The application's standing as developers read it: sandbox only, live, or suspended. */
export function ApplicationStatusBadge({ status, productionEnabled }: { status: "sandbox" | "active" | "suspended"; productionEnabled: boolean }) {
  if (status === "suspended") return <Badge tone="danger">Suspended</Badge>;
  if (productionEnabled) return <Badge tone="success">Live enabled</Badge>;
  return <Badge tone="info">Sandbox only</Badge>;
}
