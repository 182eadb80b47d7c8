"use client";

import { useEffect, useState } from "react";
import { useTranslations } from "use-intl";

type SourceProgress = { id: string; name: string; status: string | null; records: number };

const STATUSES = ["pending", "syncing", "synced", "partial", "failed"] as const;
const SETTLED = new Set(["synced", "partial", "failed"]);

function statusWords(status: string | null, t: (key: (typeof STATUSES)[number]) => string): string {
  const known = STATUSES.find((candidate) => candidate === (status ?? "pending"));
  return known ? t(known) : (status ?? "");
}

/** Live import progress per health system, announced to screen readers as it changes; its heading says when it is over. */
export function ImportProgress(props: { token: string; initial: SourceProgress[] }) {
  const t = useTranslations("progress");
  const [sources, setSources] = useState(props.initial);
  const [unreachable, setUnreachable] = useState(false);
  const settled = sources.length > 0 && sources.every((source) => source.status && SETTLED.has(source.status));

  useEffect(() => {
    if (settled) return;
    const timer = setInterval(async () => {
      try {
        const response = await fetch(`/connect/${props.token}/status`, { cache: "no-store" });
        if (!response.ok) throw new Error(String(response.status));
        setSources(((await response.json()) as { sources: SourceProgress[] }).sources);
        setUnreachable(false);
      } catch {
        setUnreachable(true);
      }
    }, 1500);
    return () => clearInterval(timer);
  }, [props.token, settled]);

  return (
    <section aria-labelledby="progress" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="progress" className="font-semibold">
        {t(settled ? "titleDone" : "title")}
      </h2>
      <ul aria-live="polite" className="mt-3 space-y-2">
        {sources.map((source) => (
          <li key={source.id} className="flex items-center justify-between gap-3">
            <span className="font-medium">{source.name}</span>
            <span className="text-sm text-slate-700" data-status={source.status ?? "pending"}>
              {statusWords(source.status, t)}
              {source.records > 0 ? ` · ${t("records", { count: source.records })}` : ""}
            </span>
          </li>
        ))}
      </ul>
      {unreachable ? <p className="mt-2 text-sm text-slate-700">{t("unreachable")}</p> : null}
    </section>
  );
}
