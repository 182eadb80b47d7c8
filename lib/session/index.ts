export * from "./session-config";
export * from "./account-schemas";
