export * from "./session-config";
