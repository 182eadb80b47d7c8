import { NotFoundPanel } from "@/components/dashboard/not-found-panel";

export default function SubjectNotFound() {
  return <NotFoundPanel title="Subject not found" description="This application's sandbox has no subject with that id." />;
}
