export * from "./build-freshness";
export * from "./limits";
export * from "./local-env";
export * from "./secrets";
