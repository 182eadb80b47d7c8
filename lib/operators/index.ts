export * from "./deployment-applications";
export * from "./live-webhook-check";
export * from "./operator-role";
export * from "./production-decisions";
export * from "./schemas";
export * from "./suspension";
export * from "./production-emails";
