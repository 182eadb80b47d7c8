export * from "./latency";
export * from "./recent-requests";
export * from "./requests-per-day";
export * from "./schemas";
export * from "./agent-reads";
export * from "./request-detail";
