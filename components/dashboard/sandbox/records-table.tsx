"use client";

import { Braces } from "lucide-react";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { loadRecordsAction } from "@/app/(dashboard)/dashboard/[appId]/sandbox/actions";
import type { NormalizedRecord } from "@/lib/records";
import { Button } from "@/components/ui/button";
import { CodeBlock } from "@/components/ui/code-block";
import { Dialog } from "@/components/ui/dialog";
import { Table, Td, Th } from "@/components/ui/table";
import { recordRow } from "./record-summary";

function RawJson({ record, label }: { record: NormalizedRecord; label: string }) {
  return (
    <Dialog
      title={`Raw JSON: ${label}`}
      description={`The record exactly as GET /users/{subject}/records/${record.category} serves it.`}
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Raw JSON of ${label}`}>
          <Braces aria-hidden="true" className="h-4 w-4" />
          JSON
        </Button>
      }
    >
      <CodeBlock code={JSON.stringify(record, null, 2)} what="Record JSON" />
    </Dialog>
  );
}

/**
 * A category's records as a readable table (label, codes with their displays, value with unit, time as sent,
 * status), each with its raw JSON one click away, and "Load more" for the next page.
 */
export function RecordsTable({ applicationId, subject, category, initialRecords, initialCursor }: { applicationId: string; subject: string; category: string; initialRecords: NormalizedRecord[]; initialCursor: string | null }) {
  const [records, setRecords] = useState(initialRecords);
  const [cursor, setCursor] = useState(initialCursor);
  const [pending, startTransition] = useTransition();

  function loadMore() {
    if (!cursor) return;
    startTransition(async () => {
      const result = await loadRecordsAction(applicationId, subject, category, cursor);
      if (!result.ok) {
        toast.error(result.error);
        return;
      }
      setRecords((current) => [...current, ...result.value.records]);
      setCursor(result.value.nextCursor);
      toast.success(`Loaded ${result.value.records.length} more ${category} records.`);
    });
  }

  return (
    <div className="space-y-3">
      <Table caption={`${category} records of ${subject}`}>
        <thead>
          <tr>
            <Th>Record</Th>
            <Th>Codes</Th>
            <Th>Value</Th>
            <Th>Time (as sent)</Th>
            <Th>Status</Th>
            <Th>
              <span className="sr-only">Raw JSON</span>
            </Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {records.map((record) => {
            const row = recordRow(record);
            const label = row.label || record.recordId;
            return (
              <tr key={record.recordId}>
                <Td className="min-w-40">
                  <span className="font-medium text-slate-900">{label}</span>
                  <span className="block font-mono text-xs text-slate-600">{record.recordId}</span>
                </Td>
                <Td className="min-w-48">
                  {row.codes.length === 0 ? (
                    <span className="text-slate-600">—</span>
                  ) : (
                    <ul className="space-y-1">
                      {row.codes.map((code, index) => (
                        <li key={`${code.system}-${code.code}-${index}`} className="text-xs">
                          <span className="font-semibold text-slate-700">{code.system}</span> <code className="rounded bg-slate-100 px-1 text-slate-900">{code.code}</code>
                          {code.display ? <span className="text-slate-700"> {code.display}</span> : null}
                        </li>
                      ))}
                    </ul>
                  )}
                </Td>
                <Td className="min-w-32">{row.value || <span className="text-slate-600">—</span>}</Td>
                <Td className="whitespace-nowrap font-mono text-xs">{row.time || "—"}</Td>
                <Td className="text-xs">{row.status || "—"}</Td>
                <Td>
                  <RawJson record={record} label={label} />
                </Td>
              </tr>
            );
          })}
        </tbody>
      </Table>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
        <p>
          Showing {records.length} {records.length === 1 ? "record" : "records"}
          {cursor ? "; more are available." : "."}
        </p>
        {cursor ? (
          <Button variant="secondary" size="sm" onClick={loadMore} pending={pending}>
            {pending ? "Loading…" : "Load more"}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
