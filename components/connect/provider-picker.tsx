"use client";

import { useId, useState } from "react";
import { useTranslations } from "use-intl";
import type { ProviderChoice } from "@/lib/connect";

/** Search and pick one or more health systems; checkboxes, so it works with a keyboard and a screen reader. */
export function ProviderPicker(props: { providers: ProviderChoice[]; selected: string[] }) {
  const t = useTranslations("picker");
  const [query, setQuery] = useState("");
  const searchId = useId();
  const words = query.trim().toLowerCase();
  const shown = props.providers.filter((provider) => `${provider.name} ${provider.location}`.toLowerCase().includes(words));
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
        {t("shown", { count: shown.length })}
      </p>
      <ul className="space-y-2">
        {props.providers.map((provider) => (
          <li key={provider.id} hidden={!shown.includes(provider)}>
            <label className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 bg-white p-3 has-[:checked]:border-teal-700 has-[:checked]:bg-teal-50">
              <input type="checkbox" name="provider" value={provider.id} defaultChecked={props.selected.includes(provider.id)} className="mt-1 h-5 w-5 accent-teal-800" />
              <span>
                <span className="block font-medium">{provider.name}</span>
                {provider.location ? <span className="block text-sm text-slate-700">{provider.location}</span> : null}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {shown.length === 0 ? <p className="text-sm text-slate-700">{t("noMatch", { query })}</p> : null}
    </fieldset>
  );
}
