export * from "./api-keys";
export * from "./create-application";
export * from "./create-developer";
export * from "./development-seed";
export { getApp } from "./operations";
export * from "./present-application";
export * from "./schemas";
