// The two MCP servers (authenticated and demo): tools generated from the REST operations' declarations.
export * from "./operations";
export * from "./profiles";
export * from "./serve-mcp";
export * from "./tools";
export { toolDefinition } from "./tool-definitions";
