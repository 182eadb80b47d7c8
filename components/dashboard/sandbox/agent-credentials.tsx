"use client";

import { useOptimistic } from "react";
import { revokeCredentialAction } from "@/app/(dashboard)/dashboard/[appId]/sandbox/actions";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, Td, Th } from "@/components/ui/table";

export type CredentialRow = { id: string; purpose: string; categories: string[]; operations: string[]; expiresAt: string; createdAt: string; keyName: string; keyPrefix: string };

/** The subject's active delegated credentials, each revocable (its next request then answers 401). */
export function AgentCredentials({ applicationId, credentials }: { applicationId: string; credentials: CredentialRow[] }) {
  const [shown, markRevoked] = useOptimistic(credentials, (rows, revokedId: string) => rows.filter((row) => row.id !== revokedId));

  // Runs inside the confirmation's transition: the row goes at once and the refreshed list replaces it.
  function revoke(credentialId: string) {
    markRevoked(credentialId);
    return revokeCredentialAction(applicationId, credentialId);
  }

  if (shown.length === 0) {
    return <EmptyState title="No active agent credentials" description="POST /agent-credentials with an application key issues one for this subject; it shows here until it expires or is revoked." />;
  }
  return (
    <Table caption="Active agent credentials">
      <thead>
        <tr>
          <Th>Credential</Th>
          <Th>Purpose</Th>
          <Th>May read</Th>
          <Th>Expires (UTC)</Th>
          <Th>Issued by</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {shown.map((credential) => (
          <tr key={credential.id}>
            <Td className="font-mono text-xs">{credential.id}</Td>
            <Td className="min-w-48">{credential.purpose}</Td>
            <Td className="text-xs">
              {credential.categories.join(", ")}
              <span className="block font-mono text-slate-600">{credential.operations.join(", ")}</span>
            </Td>
            <Td className="whitespace-nowrap font-mono text-xs">{credential.expiresAt.replace("T", " ").slice(0, 19)}</Td>
            <Td className="whitespace-nowrap text-xs">
              {credential.keyName} <span className="font-mono">({credential.keyPrefix}…)</span>
            </Td>
            <Td>
              <ConfirmAction
                label="Revoke"
                title="Revoke this credential?"
                description={`The agent using ${credential.id} is refused from its next request (401 invalid_agent_token). This cannot be undone.`}
                confirmLabel="Revoke credential"
                action={() => revoke(credential.id)}
              />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
