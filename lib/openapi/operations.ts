import { defineOperation, PLATFORM_PROFILE } from "@/lib/api";
import { DEMO_PROFILE } from "@/lib/demo";
import { openApiDocumentSchema } from "./common-schemas";

const documentResponse = { status: 200, description: "The OpenAPI document.", schema: openApiDocumentSchema };

export const getPlatformOpenApiOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "GET",
  path: "/openapi.json",
  operationId: "getPlatformOpenApi",
  tag: "Platform",
  summary: "This API's OpenAPI 3.1 document",
  auth: "none",
  cache: "public, max-age=300",
  success: documentResponse,
  errors: [],
});

export const getDemoOpenApiOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/openapi.json",
  operationId: "getDemoOpenApi",
  tag: "Demo",
  summary: "This API's OpenAPI 3.1 document",
  auth: "none",
  success: documentResponse,
  errors: [],
});
