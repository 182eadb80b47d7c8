export * from "./categories";
export * from "./fidelity-report";
export * from "./normalize";
export * from "./schemas";
export * from "./store";
export * from "./read";
