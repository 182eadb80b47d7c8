export * from "./audit-context";
export * from "./export-audit";
export * from "./read-audit";
export * from "./record-audit";
export * from "./schemas";
