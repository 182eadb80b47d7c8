import { NotFoundPanel } from "@/components/dashboard/not-found-panel";

export default function LiveSubjectNotFound() {
  return <NotFoundPanel title="Subject not found" description="This application has no live subject with that id." />;
}
