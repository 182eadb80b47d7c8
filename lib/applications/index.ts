export * from "./api-keys";
export * from "./category-descriptions";
export * from "./create-application";
export * from "./create-developer";
export * from "./development-seed";
export * from "./manage-application";
export * from "./present-application";
export * from "./schemas";
export { getApp } from "./operations";
