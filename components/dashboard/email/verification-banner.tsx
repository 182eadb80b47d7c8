import { emailVerified } from "@/lib/accounts";
import { ResendVerificationButton } from "./resend-verification-button";

/** Above every dashboard page while the account's address is unconfirmed: what it blocks, and a new link. */
export async function VerificationBanner({ developer }: { developer: { id: string; email: string } }) {
  if (await emailVerified(developer.id)) return null;
  return (
    <section aria-label="Confirm your email address" className="border-b border-amber-300 bg-amber-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-3 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p className="break-words">
          Confirm your email address: we sent a link to <strong>{developer.email}</strong>. Until you follow it, this account cannot create live keys or invite team members.
        </p>
        <ResendVerificationButton />
      </div>
    </section>
  );
}
