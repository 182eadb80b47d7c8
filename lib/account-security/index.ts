export * from "./dashboard-sessions";
export * from "./device";
export * from "./rules";
export * from "./factors";
