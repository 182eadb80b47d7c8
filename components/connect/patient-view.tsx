import { SECONDARY_BUTTON } from "@/components/connect/flow-shell";
import type { PatientView } from "@/lib/connect";
import { longDate, translatorFor, type Locale } from "@/lib/i18n";
import { CATEGORIES, type Category } from "@/lib/records";

type Reads = { category: string; reads: number }[];

/**
 * The patient's own view on the receipt page (issue 53, point 4): the health systems shared from, the records the
 * application can read per category, and who read what and when, from the request log, with each AI agent's declared
 * purpose. A server component: everything is in the HTML, readable without script, one column on a phone.
 */
export function PatientViewSections({ view, locale, token }: { view: PatientView; locale: Locale; token: string }) {
  const t = translatorFor(locale);
  const application = view.application;
  const date = (value: Date) => longDate(locale, value);
  const list = (items: string[]) => new Intl.ListFormat(locale, { style: "long", type: "conjunction" }).format(items);
  const label = (category: string) => ((CATEGORIES as readonly string[]).includes(category) ? t(`categories.${category as Category}.label`) : category);
  const reads = (whole: number, byCategory: Reads) =>
    list([
      ...(whole > 0 ? [t("receipt.view.timesRead", { what: t("receipt.view.wholeRecord"), count: whole })] : []),
      ...byCategory.map((entry) => t("receipt.view.timesRead", { what: label(entry.category), count: entry.reads })),
    ]);
  const { history } = view;
  return (
    <>
      <section aria-labelledby="view-sources" className="mt-8">
        <h2 id="view-sources" className="text-lg font-semibold">
          {t("receipt.view.sourcesTitle")}
        </h2>
        {view.sources.length === 0 ? (
          <p className="mt-2 text-slate-800">{t("receipt.view.noSources", { application })}</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {view.sources.map((source, index) => (
              <li key={index} className="p-3">
                <span className="font-semibold">{source.name}</span>
                <span className="block text-sm text-slate-700">
                  {source.lastSyncedAt ? t("receipt.view.sourceUpdated", { date: date(source.lastSyncedAt) }) : t("receipt.view.sourceNotRead")}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="view-counts" className="mt-8">
        <h2 id="view-counts" className="text-lg font-semibold">
          {t("receipt.view.countsTitle", { application })}
        </h2>
        {view.recordCounts === null ? (
          <p className="mt-2 text-slate-800">{t("receipt.view.countsEnded", { application })}</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {view.recordCounts.map((count) => (
              <li key={count.category} className="flex flex-wrap justify-between gap-x-4 p-3">
                <span>{label(count.category)}</span>
                <span className="font-semibold">{t("receipt.view.categoryRecords", { count: count.records })}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="view-history" className="mt-8">
        <h2 id="view-history" className="text-lg font-semibold">
          {t("receipt.view.historyTitle", { application })}
        </h2>
        <p className="mt-2 text-sm text-slate-700">{t("receipt.view.historyIntro", { application, days: view.historyDays })}</p>
        {history.days.length === 0 ? (
          <p className="mt-3 text-slate-800">{t("receipt.view.noReads", { application, days: view.historyDays })}</p>
        ) : (
          <ol className="mt-3 space-y-3">
            {history.days.map((day) => (
              <li key={day.day} className="rounded-lg border border-slate-200 bg-white p-3">
                <h3 className="font-semibold">{date(new Date(`${day.day}T00:00:00Z`))}</h3>
                <p className="text-sm text-slate-700">
                  {t("receipt.view.dayRequests", { count: day.requests })}
                  {day.agentRequests > 0 ? ` · ${t("receipt.view.dayAgents", { count: day.agentRequests })}` : null}
                </p>
                <p className="mt-1">{t("receipt.view.readList", { list: reads(day.wholeRecordReads, day.categories) })}</p>
              </li>
            ))}
          </ol>
        )}

        <h3 className="mt-6 font-semibold">{t("receipt.view.agentsTitle")}</h3>
        <p className="mt-1 text-sm text-slate-700">{t("receipt.view.agentsIntro", { application })}</p>
        {history.agents.length === 0 ? (
          <p className="mt-2 text-slate-800">{t("receipt.view.noAgents", { application })}</p>
        ) : (
          <ul className="mt-2 space-y-3">
            {history.agents.map((agent) => {
              const what = agent.requests > 0 ? reads(agent.wholeRecordReads, agent.reads) : t("receipt.view.nothing");
              return (
                <li key={agent.credentialId} className="break-words rounded-lg border border-slate-200 bg-white p-3">
                  <p>
                    {agent.purpose === null
                      ? t("receipt.view.agentNoPurpose", { application, reads: what })
                      : t("receipt.view.agent", { application, purpose: agent.purpose, reads: what })}
                  </p>
                  {agent.issuedAt && agent.expiresAt ? (
                    <p className="mt-1 text-sm text-slate-700">
                      {t("receipt.view.agentScope", {
                        categories: list(agent.categories.map(label)),
                        date: date(agent.issuedAt),
                        until: date(agent.revokedAt && agent.revokedAt < agent.expiresAt ? agent.revokedAt : agent.expiresAt),
                      })}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
        <a className={`${SECONDARY_BUTTON} mt-6`} href={`/consent/${token}/history`} download>
          {t("receipt.view.download")}
        </a>
      </section>
    </>
  );
}
