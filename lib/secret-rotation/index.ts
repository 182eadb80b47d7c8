export * from "./rotate-secrets";
