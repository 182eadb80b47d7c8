import { Table, Td, Th } from "@/components/ui/table";
import type { FidelityReport } from "@/lib/records";

/**
 * One source's fidelity report on the subject page: what its latest completed import yielded per category, the
 * resources that became no record (by type and reason), what was read only as context, and the records' warnings.
 * The same report the session's and the snapshot's `sources[].fidelity` carry.
 */
export function SourceFidelityReport({ providerName, report }: { providerName: string; report: FidelityReport | null }) {
  const headingId = `fidelity-${report?.importId ?? providerName.replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        {providerName}
        {report ? <span className="ml-2 break-all font-mono text-xs font-normal text-slate-600">{report.importId}</span> : null}
      </h3>
      {report ? <ReportBody providerName={providerName} report={report} /> : <p className="text-sm text-slate-600">No import of this source has completed yet.</p>}
    </section>
  );
}

function ReportBody({ providerName, report }: { providerName: string; report: FidelityReport }) {
  const total = Object.values(report.records).reduce((sum, count) => sum + count, 0);
  const skipped = report.skipped.reduce((sum, row) => sum + row.count, 0);
  return (
    <>
      <p className="text-sm text-slate-700" data-testid="fidelity-totals">
        {total} {total === 1 ? "record" : "records"}, {skipped} {skipped === 1 ? "resource" : "resources"} skipped, completed {report.finishedAt}
      </p>
      <ul aria-label={`Records from ${providerName} by category`} className="flex flex-wrap gap-1">
        {Object.entries(report.records).map(([category, count]) => (
          <li key={category} className={`rounded-full px-2 py-0.5 text-xs ${count > 0 ? "bg-teal-50 text-teal-900" : "bg-slate-100 text-slate-700"}`}>
            {category} {count}
          </li>
        ))}
      </ul>
      {report.skipped.length === 0 ? (
        <p className="text-sm text-slate-600">Every resource of the ten categories&apos; types became a record.</p>
      ) : (
        <Table caption={`Resources from ${providerName} that became no record`}>
          <thead>
            <tr>
              <Th>Resource type</Th>
              <Th>Reason</Th>
              <Th className="text-right">Count</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {report.skipped.map((row) => (
              <tr key={`${row.resourceType} ${row.reason}`}>
                <Td className="whitespace-nowrap font-mono text-xs">{row.resourceType}</Td>
                <Td className="min-w-56 text-xs">{row.reason}</Td>
                <Td className="text-right tabular-nums">{row.count}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <p className="break-words text-xs text-slate-600">
        Read only as context: {report.context.length === 0 ? "none" : report.context.map((row) => `${row.resourceType} ${row.count}`).join(", ")}
      </p>
      {report.warnings.length === 0 ? (
        <p className="text-xs text-slate-600">No record carries a warning.</p>
      ) : (
        <ul aria-label={`Warnings on records from ${providerName}`} className="list-disc space-y-1 pl-5 text-xs text-amber-900">
          {report.warnings.map((row) => (
            <li key={row.warning} className="break-words">
              {row.warning} ({row.count} {row.count === 1 ? "record" : "records"})
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
