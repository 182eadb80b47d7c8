import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AcceptInvitation } from "@/components/dashboard/team/accept-invitation";
import { buttonClass } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { requireDeveloper } from "@/lib/dashboard";
import { previewInvitation } from "@/lib/team";

export const metadata: Metadata = { title: "Invitation" };

const UNUSABLE = {
  accepted: "This invitation was already accepted.",
  revoked: "This invitation was revoked by an owner of the application.",
  expired: "This invitation has expired. Ask an owner of the application for a new one.",
} as const;

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const developer = await requireDeveloper();
  const invitation = await previewInvitation(token);
  const back = (
    <Link className={buttonClass("secondary")} href="/dashboard">
      Go to your applications
    </Link>
  );
  if (!invitation) notFound();
  if (invitation.status !== "pending") return <EmptyState title="This invitation cannot be used" description={UNUSABLE[invitation.status]} action={back} />;
  const matches = invitation.email.toLowerCase() === developer.email.toLowerCase();
  return (
    <div className="mx-auto max-w-lg space-y-4">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Join {invitation.applicationName}</h1>
      <Card>
        <CardBody className="space-y-4">
          <p className="text-sm text-slate-800">
            You are invited as {invitation.role === "owner" ? "an owner" : "a member"} of <strong>{invitation.applicationName}</strong>. The invitation is for{" "}
            <strong>{invitation.email}</strong> and expires {invitation.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC.
          </p>
          {matches ? (
            <AcceptInvitation token={token} />
          ) : (
            <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              You are signed in as {developer.email}. Sign out and sign in (or sign up) as {invitation.email} to accept it.
            </p>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
