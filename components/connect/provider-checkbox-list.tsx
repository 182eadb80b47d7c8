import type { InputHTMLAttributes } from "react";
import type { ProviderChoice } from "@/lib/connect";

/**
 * The health systems as checkboxes named `provider`, each with its name and location: the list both Connect pickers
 * show. `checkbox` gives each one its state (uncontrolled `defaultChecked`, or `checked` with `onChange`); `hidden`
 * ones stay in the form, and so stay chosen, while a search hides them.
 */
export function ProviderCheckboxList(props: {
  providers: readonly ProviderChoice[];
  checkbox: (provider: ProviderChoice) => Pick<InputHTMLAttributes<HTMLInputElement>, "checked" | "defaultChecked" | "onChange">;
  hidden?: (provider: ProviderChoice) => boolean;
}) {
  return (
    <ul className="space-y-2">
      {props.providers.map((provider) => (
        <li key={provider.id} hidden={props.hidden?.(provider)}>
          <label className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 bg-white p-3 has-[:checked]:border-teal-700 has-[:checked]:bg-teal-50">
            <input type="checkbox" name="provider" value={provider.id} {...props.checkbox(provider)} className="mt-1 h-5 w-5 accent-teal-800" />
            <span>
              <span className="block font-medium">{provider.name}</span>
              {provider.location ? <span className="block text-sm text-slate-700">{provider.location}</span> : null}
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}
