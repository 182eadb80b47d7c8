import { NotFoundPanel } from "@/components/dashboard/not-found-panel";

export default function ApplicationNotFound() {
  return <NotFoundPanel title="Application not found" description="It does not exist, it was deleted, or your account is not a member of it." />;
}
