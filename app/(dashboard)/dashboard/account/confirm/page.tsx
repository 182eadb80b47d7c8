import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PasskeyButton } from "@/components/dashboard/account/passkey-button";
import { SecondFactorForm } from "@/components/dashboard/account/second-factor-form";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { enrolledFactors, STEP_UP_MINUTES } from "@/lib/account-security";
import { ENROL_PATH, requireSignIn } from "@/lib/dashboard";
import { safeReturnPath } from "@/lib/session";

export const metadata: Metadata = { title: "Confirm it is you" };

/** Step-up: a sensitive action asks for the second factor again when it was not given in the last few minutes. */
export default async function ConfirmPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const then = safeReturnPath(next);
  const { developer } = await requireSignIn();
  const factors = await enrolledFactors(developer.id);
  if (!factors.totp && factors.passkeys === 0) redirect(`${ENROL_PATH}?${new URLSearchParams({ next: then })}`);
  return (
    <div className="mx-auto max-w-md">
      <Card>
        <CardHeader
          title="Confirm it is you"
          description={`This action reaches live data or secrets, so it asks for your second factor when you have not given it in the last ${STEP_UP_MINUTES} minutes. Nothing was changed yet: after this you return to the page and try again.`}
        />
        <CardBody className="space-y-6">
          {factors.passkeys > 0 ? <PasskeyButton mode="second_factor" next={then} /> : null}
          <SecondFactorForm next={then} totp={factors.totp} submitLabel="Confirm" />
        </CardBody>
      </Card>
    </div>
  );
}
