// Delegated credentials for AI agents: issued by an application key for one consented subject (lib/auth checks them).
export * from "./issue-credential";
export * from "./operations";
export * from "./present-credential";
export * from "./revoke-credential";
export * from "./schemas";
export * from "./manage-credentials";
