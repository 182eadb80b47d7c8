export { getHealth } from "./health";
export { getHealthOperation } from "./operations";
export { healthResponseSchema, type HealthResponse } from "./schemas";
