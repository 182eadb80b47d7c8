import { NotFoundPanel } from "@/components/dashboard/not-found-panel";

export default function RequestNotFound() {
  return <NotFoundPanel title="Request not found" description="It is not in this application's request log, or it belongs to an application your account is not a member of." />;
}
