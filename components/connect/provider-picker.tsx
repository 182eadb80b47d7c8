"use client";

import { useId, useState } from "react";
import { useTranslations } from "use-intl";
import type { ProviderChoice } from "@/lib/connect";
import { ProviderCheckboxList } from "./provider-checkbox-list";

/** More matches than this ask the patient to type more: a deployment's live directory can list hundreds. */
const MAX_SHOWN = 20;

/** Every word typed must appear in the name or the city and region, in any order ("mercy springfield"). */
function matches(provider: ProviderChoice, query: string): boolean {
  const haystack = `${provider.name} ${provider.location}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/**
 * Connect's health system picker, sandbox and live alike: the session's providers, searched by name and city.
 * Checkboxes (keyboard and screen reader friendly); the ones already chosen stay listed whatever the search, and
 * at most MAX_SHOWN others are, so a live deployment's large directory stays usable.
 */
export function ProviderPicker(props: { providers: ProviderChoice[]; selected: string[] }) {
  const t = useTranslations("picker");
  const [query, setQuery] = useState("");
  const [chosen, setChosen] = useState<string[]>(props.selected);
  const searchId = useId();
  const found = props.providers.filter((provider) => matches(provider, query));
  const shown = new Set([...found.slice(0, MAX_SHOWN).map((provider) => provider.id), ...chosen]);
  const more = found.length - found.slice(0, MAX_SHOWN).length;
  const toggle = (id: string, on: boolean) => setChosen(on ? [...chosen, id] : chosen.filter((other) => other !== id));
  return (
    <fieldset className="space-y-3">
      <legend className="font-semibold">{t("legend")}</legend>
      <p className="text-sm text-slate-700">{t("hint")}</p>
      <label htmlFor={searchId} className="block text-sm font-medium">
        {t("search")}
      </label>
      <input
        id={searchId}
        type="search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        placeholder={t("placeholder")}
        className="w-full rounded-lg border border-slate-400 bg-white px-3 py-2 focus:border-teal-700 focus:outline-none focus:ring-2 focus:ring-teal-700"
      />
      <p aria-live="polite" className="sr-only">
        {t("matches", { count: found.length })}
      </p>
      <ProviderCheckboxList
        providers={props.providers.filter((provider) => shown.has(provider.id))}
        checkbox={(provider) => ({ checked: chosen.includes(provider.id), onChange: (event) => toggle(provider.id, event.target.checked) })}
      />
      {more > 0 ? <p className="text-sm text-slate-700">{t("more", { count: more })}</p> : null}
      {found.length === 0 ? (
        <p className="text-sm text-slate-700">{props.providers.length === 0 ? t("none") : t("noMatch", { query })}</p>
      ) : null}
    </fieldset>
  );
}
