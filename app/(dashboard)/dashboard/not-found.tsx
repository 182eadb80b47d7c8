import { NotFoundPanel } from "@/components/dashboard/not-found-panel";

// notFound() from the application layout (an application that does not exist, was deleted, or that the developer
// is not a member of) lands here, one segment up: the same page in all three cases, so an id reveals nothing.
export default function ApplicationNotFound() {
  return (
    <NotFoundPanel
      title="Application not found"
      summary="Nothing here for your account"
      description="It does not exist, it was deleted, or your account is not a member of it."
    />
  );
}
