export * from "./build-freshness";
export * from "./limits";
export * from "./local-env";
export * from "./outbound";
export * from "./secrets";
export * from "./platform-origin";
export * from "./operators";
export * from "./email";
