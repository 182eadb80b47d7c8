"use client";

import { useId, useState } from "react";
import { useTranslations } from "use-intl";
import type { ProviderChoice } from "@/lib/connect";
import { ProviderCheckboxList } from "./provider-checkbox-list";

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
      <ProviderCheckboxList
        providers={props.providers}
        hidden={(provider) => !shown.includes(provider)}
        checkbox={(provider) => ({ defaultChecked: props.selected.includes(provider.id) })}
      />
      {shown.length === 0 ? <p className="text-sm text-slate-700">{t("noMatch", { query })}</p> : null}
    </fieldset>
  );
}
