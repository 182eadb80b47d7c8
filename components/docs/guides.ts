/** The guides beside the API reference, in reading order (app/docs/guides/<slug>/page.mdx). */
export const GUIDES = [
  { slug: "quickstart", title: "Quickstart" },
  { slug: "connect", title: "Connect" },
  { slug: "records", title: "Records and the change feed" },
  { slug: "fhir", title: "FHIR R4" },
  { slug: "webhooks", title: "Webhooks" },
  { slug: "sandbox", title: "Sandbox scenarios" },
  { slug: "tefca", title: "TEFCA" },
  { slug: "agents-and-mcp", title: "Agents and MCP" },
  { slug: "going-live", title: "Going live" },
] as const;
