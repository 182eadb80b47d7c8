export * from "./discover";
export * from "./manage-providers";
export * from "./schemas";
