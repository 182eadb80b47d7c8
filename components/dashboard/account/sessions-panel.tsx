"use client";

import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { DataTable } from "@/components/ui/data-table";
import { Td } from "@/components/ui/table";
import { endSessionAction, signOutEverywhereAction } from "@/app/(dashboard)/dashboard/account/security/actions";

export type SessionRow = { id: string; device: string; address: string; createdAt: string; lastSeenAt: string; waitingForSecondFactor: boolean; current: boolean };

function utc(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/** The account's signed-in sessions with "Sign out" for each and "Sign out everywhere". */
export function SessionsPanel({ sessions }: { sessions: SessionRow[] }) {
  return (
    <Card>
      <CardHeader
        title="Signed-in sessions"
        description="Each browser signed in to your account. Signing one out ends it at once, on its next click."
        actions={
          <ConfirmAction
            label="Sign out everywhere"
            title="Sign out everywhere?"
            description={<p>Every session of your account ends, this one included. You sign in again here afterwards.</p>}
            confirmLabel="Sign out everywhere"
            action={signOutEverywhereAction}
          />
        }
      />
      <CardBody>
        <DataTable caption="Signed-in sessions" columns={["Device", "Address", "Signed in", "Last seen", { label: "Actions", visuallyHidden: true }]} rows={sessions}>
          {(session) => (
            <tr key={session.id} aria-label={`${session.device} from ${session.address}`}>
              <Td className="font-medium">
                {session.device} {session.current ? <Badge tone="success">This device</Badge> : null}
                {session.waitingForSecondFactor ? <Badge tone="warning">Waiting for the second factor</Badge> : null}
              </Td>
              <Td className="break-all">{session.address}</Td>
              <Td className="whitespace-nowrap">{utc(session.createdAt)}</Td>
              <Td className="whitespace-nowrap">{utc(session.lastSeenAt)}</Td>
              <Td className="text-right">
                <ConfirmAction
                  label="Sign out"
                  title={session.current ? "Sign out of this device?" : `Sign out ${session.device}?`}
                  description={<p>{session.current ? "You sign in again to continue." : "That browser is signed out on its next click."}</p>}
                  confirmLabel="Sign out"
                  action={() => endSessionAction(session.id)}
                />
              </Td>
            </tr>
          )}
        </DataTable>
      </CardBody>
    </Card>
  );
}
