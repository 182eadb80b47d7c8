export * from "./auth";
export * from "./current-developer";
export * from "./register-developer";
export * from "./application-context";
export * from "./my-applications";
export * from "./application-overview";
export * from "./request-origin";
export * from "./action-result";
