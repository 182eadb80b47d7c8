import { NotFoundPanel } from "@/components/dashboard/not-found-panel";

export default function InvitationNotFound() {
  return <NotFoundPanel title="Invitation not found" description="The link is incomplete or not an invitation. Check that you copied all of it." />;
}
