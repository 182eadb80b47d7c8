export * from "./build-freshness";
export * from "./limits";
export * from "./local-env";
export * from "./secrets";
export * from "./platform-origin";
