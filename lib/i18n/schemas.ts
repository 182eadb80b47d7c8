// Client-safe: types only, for the patient pages' client components.
export type { Locale } from "./locales";
export type { Messages } from "./messages";
