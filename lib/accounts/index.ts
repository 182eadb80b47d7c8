export * from "./errors";
export * from "./schemas";
export * from "./sign-in";
export * from "./sign-up";
