export { platformHealth } from "./health";
export { getHealth } from "./operations";
export { healthResponseSchema, type HealthResponse } from "./schemas";
