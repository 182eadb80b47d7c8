export * from "./api-key-format";
export * from "./authenticate-key";
export * from "./create-api-key";
export * from "./key-cache";
export * from "./manage-api-keys";
export * from "./password";
export * from "./secret-box";
export * from "./require-sandbox";
