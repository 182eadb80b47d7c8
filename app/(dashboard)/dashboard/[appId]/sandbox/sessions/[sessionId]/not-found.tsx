import { NotFoundPanel } from "@/components/dashboard/not-found-panel";

export default function SessionNotFound() {
  return <NotFoundPanel title="Session not found" description="This application's sandbox has no Connect session with that id." />;
}
