export * from "./session-config";
export * from "./schemas";
