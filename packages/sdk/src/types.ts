import type { components } from "./schema.js";

// The API's shapes under the names integrations use, from the generated OpenAPI types.
export type Schemas = components["schemas"];
export type Category = Schemas["ConsentReceipt"]["categories"][number];
export type ConnectSession = Schemas["ConnectSession"];
export type HealthRecord = Schemas["Record"];
export type RecordChange = Schemas["RecordChange"];
export type CategoryRecordsPage = Schemas["CategoryRecordsPage"];
export type RecordChangePage = Schemas["RecordChangePage"];
export type User = Schemas["User"];
