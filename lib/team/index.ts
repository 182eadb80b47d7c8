export * from "./access";
export * from "./errors";
export * from "./invitations";
export * from "./members";
export * from "./permissions";
export * from "./schemas";
export * from "./invitation-email";
