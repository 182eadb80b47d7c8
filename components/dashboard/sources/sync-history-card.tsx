import type { ImportHistoryEntry } from "@/lib/imports";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { SubjectImportHistory } from "./import-history";
import { RerunSourceButton } from "./rerun-source-button";

/** A subject page's Sync history card (live and sandbox alike): each source's latest imports, with Re-run where the viewer may. */
export function SyncHistoryCard({
  applicationId,
  sources,
  histories,
  mayRerun,
}: {
  applicationId: string;
  sources: readonly { id: string; providerName: string }[];
  histories: Map<string, ImportHistoryEntry[]>;
  mayRerun: boolean;
}) {
  return (
    <Card>
      <CardHeader
        title="Sync history"
        description="Each source's latest imports, newest first: what started it (Connect, the schedule, a re-run), how it ended and with which code, how long it took, what it read and what it changed. A re-run reads the health system again now (at most ten every ten minutes per application)."
      />
      <CardBody>
        <SubjectImportHistory
          sources={sources}
          histories={histories}
          action={mayRerun ? (source) => <RerunSourceButton applicationId={applicationId} sourceId={source.id} providerName={source.providerName} /> : undefined}
        />
      </CardBody>
    </Card>
  );
}
