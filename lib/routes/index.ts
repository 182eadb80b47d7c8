// The API families' dispatch tables, built from their operations' declarations: one graph of route handlers that
// the platform server, the families' catch-all route files (Next.js) and the MCP tools all serve through.
export { API_DISPATCHER, API_ROUTES, DEMO_ROUTES, dispatchApiRequest, PLATFORM_ROUTES } from "./api-routes";
export { EHR_ROUTES } from "./ehr-routes";
export { REPORT_ROUTES } from "./report-routes";
