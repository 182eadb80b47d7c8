// The two MCP servers (authenticated and demo): tools generated from the REST operations' declarations.
export { demoMcpOperation, platformMcpOperation } from "./operations";
export { serveMcp } from "./serve-mcp";
export { DEMO_TOOLS, PLATFORM_TOOLS, type ToolEntry, type ToolSet } from "./tools";
