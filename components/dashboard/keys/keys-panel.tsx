"use client";

import { useOptimistic } from "react";
import { revokeKeyAction } from "@/app/(dashboard)/dashboard/[appId]/keys/actions";
import { Badge } from "@/components/ui/badge";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, Td, Th } from "@/components/ui/table";
import { CreateKeyButton } from "./create-key";

export type KeyRow = {
  id: string;
  name: string;
  displayPrefix: string;
  environment: "sandbox" | "live";
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

type KeysPanelProps = {
  applicationId: string;
  keys: KeyRow[];
  origin: string;
  canCreate: { sandbox: boolean; live: boolean };
  liveEnabled: boolean;
};

function when(iso: string | null): string {
  return iso ? new Date(iso).toISOString().replace("T", " ").slice(0, 16) + " UTC" : "Never";
}

/** The application's keys with create and revoke; a revocation shows at once and is undone if the server refuses it. */
export function KeysPanel({ applicationId, keys, origin, canCreate, liveEnabled }: KeysPanelProps) {
  const [shown, markRevoked] = useOptimistic(keys, (current, keyId: string) =>
    current.map((key) => (key.id === keyId ? { ...key, revokedAt: new Date().toISOString() } : key)),
  );

  // Runs inside the confirmation's transition: the row shows revoked at once and the refreshed list replaces it.
  function revoke(keyId: string) {
    markRevoked(keyId);
    return revokeKeyAction(applicationId, keyId);
  }

  // One create button in one place: the list refreshing after a creation must not unmount the dialog showing the key.
  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <CreateKeyButton applicationId={applicationId} origin={origin} canCreate={canCreate} liveEnabled={liveEnabled} />
      </div>
      {shown.length === 0 ? (
        <EmptyState title="No API keys yet" description="Create a sandbox key to call the API with synthetic patients." />
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white">
          <Table caption="API keys">
            <thead className="bg-slate-50">
              <tr>
                <Th>Name</Th>
                <Th>Key</Th>
                <Th>Environment</Th>
                <Th>Created</Th>
                <Th>Last used</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {shown.map((key) => (
                <tr key={key.id} aria-label={key.name} data-key-id={key.id}>
                  <Td className="font-medium">
                    {key.name}
                    {key.revokedAt ? (
                      <span className="mt-1 block">
                        <Badge tone="danger">Revoked</Badge>
                      </span>
                    ) : null}
                  </Td>
                  <Td className="font-mono text-xs">{key.displayPrefix}…</Td>
                  <Td>
                    <Badge tone={key.environment === "live" ? "warning" : "info"}>{key.environment}</Badge>
                  </Td>
                  <Td className="whitespace-nowrap">{when(key.createdAt)}</Td>
                  <Td className="whitespace-nowrap">{when(key.lastUsedAt)}</Td>
                  {/* Pinned to the scroller's right edge: on a phone the wide columns scroll under it. */}
                  <Td className="sticky right-0 bg-white text-right">
                    {key.revokedAt ? (
                      <span className="text-xs text-slate-600">—</span>
                    ) : (
                      <ConfirmAction
                        label="Revoke"
                        title={`Revoke “${key.name}”?`}
                        description={
                          <p>
                            Requests with <span className="font-mono">{key.displayPrefix}…</span> are refused from the next one on. This cannot be undone;
                            create a new key first if something still uses it.
                          </p>
                        }
                        confirmLabel="Revoke key"
                        disabled={!canCreate[key.environment]}
                        action={() => revoke(key.id)}
                      />
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
      )}
    </div>
  );
}
