import { Braces } from "lucide-react";
import { recordRow } from "@/components/dashboard/sandbox/record-summary";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, Td, Th } from "@/components/ui/table";
import type { CategoryView } from "./demo-view";

/** One category of a demo patient's records: a readable table (the first few when there are many), and its JSON. */
export function DemoRecords({ view, patientName }: { view: CategoryView; patientName: string }) {
  const headingId = `${view.category}-heading`;
  const shown = view.records.length;
  return (
    <section id={view.category} aria-labelledby={headingId} className="scroll-mt-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {view.label} <span className="text-sm font-normal text-slate-600">({view.total.toLocaleString("en-US")})</span>
        </h2>
        <a className="inline-flex items-center gap-1 text-sm text-teal-800 underline" href={view.json}>
          <Braces aria-hidden="true" className="h-4 w-4" />
          {view.label} as JSON
        </a>
      </div>
      <p className="mt-0.5 text-xs text-slate-600">From FHIR {view.fhir}</p>
      <div className="mt-2">
        {view.total === 0 ? (
          <EmptyState title={`No ${view.label.toLowerCase()} in this record`} description="The health systems sent none for this patient; the API answers an empty list." />
        ) : (
          <>
            <Table caption={`${view.label} of ${patientName}`}>
              <thead>
                <tr>
                  <Th>Record</Th>
                  <Th>Value</Th>
                  <Th>Time (as sent)</Th>
                  <Th>Status</Th>
                  <Th>Codes</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 bg-white">
                {view.records.map((record) => {
                  const row = recordRow(record);
                  return (
                    <tr key={record.recordId}>
                      <Td className="min-w-44 font-medium text-slate-900">{row.label || record.recordId}</Td>
                      <Td className="min-w-32">{row.value || "—"}</Td>
                      <Td className="whitespace-nowrap font-mono text-xs">{row.time || "—"}</Td>
                      <Td>{row.status || "—"}</Td>
                      <Td className="min-w-40 text-xs">
                        {row.codes.length === 0
                          ? "—"
                          : row.codes.map((code) => (
                              <span key={`${code.system}|${code.code}`} className="block">
                                {code.system} <span className="font-mono">{code.code}</span>
                              </span>
                            ))}
                      </Td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
            {shown < view.total ? (
              <p className="mt-2 text-sm text-slate-700">
                Showing the first {shown} of {view.total.toLocaleString("en-US")}.{" "}
                <a className="text-teal-800 underline" href={view.json}>
                  All {view.total.toLocaleString("en-US")} as JSON
                </a>
              </p>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}
