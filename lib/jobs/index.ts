export * from "./cycles";
export * from "./lifecycle";
export * from "./queue";
export * from "./worker";
