import { objects, string, strings, type Json } from "./read";

export type PersonName = { text: string | null; given: string[]; family: string | null; prefix: string[]; suffix: string[] };

const PREFERRED_NAME_USES = ["official", "usual"];
const PAST_NAME_USES = ["old", "maiden"];

/** The name a person goes by now: official, else usual, else the first one that is not a past name. */
export function currentPersonName(value: unknown): PersonName | null {
  const names = objects(value);
  const chosen =
    PREFERRED_NAME_USES.map((use) => names.find((name) => name.use === use)).find((name) => name !== undefined) ??
    names.find((name) => !PAST_NAME_USES.includes(String(name.use))) ??
    names[0];
  return chosen ? personName(chosen) : null;
}

function personName(name: Json): PersonName | null {
  const given = strings(name.given);
  const family = string(name.family);
  const prefix = strings(name.prefix);
  const suffix = strings(name.suffix);
  const assembled = [...prefix, ...given, family ?? "", ...suffix].filter((part) => part !== "").join(" ");
  const text = string(name.text) ?? (assembled === "" ? null : assembled);
  return text === null ? null : { text, given, family, prefix, suffix };
}

/** How to show a referenced resource: an Organization's or Location's name, or a person's current name. */
export function resourceDisplayName(resource: Json | null): string | null {
  if (!resource) return null;
  return string(resource.name) ?? currentPersonName(resource.name)?.text ?? null;
}
