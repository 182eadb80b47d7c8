export * from "./api-key-format";
export * from "./authenticate-key";
export * from "./create-api-key";
export * from "./key-cache";
export * from "./password";
export * from "./secret-box";
export * from "./require-sandbox";
