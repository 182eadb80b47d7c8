export * from "./lifecycle";
export * from "./lifecycle-job";
export * from "./prune-cycles";
export * from "./queue";
export * from "./registered-cycles";
export * from "./registered-jobs";
export * from "./registry";
export * from "./worker";
