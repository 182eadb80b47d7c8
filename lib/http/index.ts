// The HTTP building blocks every API family shares: errors and their envelope, headers, limits, cursors, bodies.
export * from "./address-limit";
export * from "./api-error";
export * from "./bounded-limiter";
export * from "./client-address";
export * from "./cursor";
export * from "./error-codes";
export * from "./error-response";
export * from "./headers";
export * from "./idempotency";
export * from "./pagination";
export * from "./rate-limit";
export * from "./read-json-body";
export * from "./request-log";
export * from "./respond";
export * from "./zod-issues";
export * from "./page-text";
export * from "./request-path";
