import { NotFoundPanel } from "@/components/dashboard/not-found-panel";

// notFound() from the application layout (an application that does not exist, was deleted, or that the developer
// is not a member of) lands here, one segment up: the same page in all three cases, so an id reveals nothing.
export default function ApplicationNotFound() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Application not found</h1>
      <NotFoundPanel title="Nothing here for your account" description="It does not exist, it was deleted, or your account is not a member of it." />
    </div>
  );
}
