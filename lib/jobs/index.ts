export * from "./heap-growth";
export * from "./lifecycle";
export * from "./lifecycle-job";
export * from "./prune-cycles";
export * from "./queue";
export * from "./registry";
export * from "./worker";
