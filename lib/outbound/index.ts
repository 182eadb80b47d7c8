export * from "./destination";
export * from "./guarded-request";
