export * from "./destination";
export * from "./guarded-get";
