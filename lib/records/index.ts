export * from "./categories";
export * from "./normalize";
export * from "./schemas";
export * from "./store";
export * from "./read";
