import { defineOperation, PLATFORM_PROFILE } from "@/lib/api";
import { applicationSchema } from "./schemas";

export const getAppOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "GET",
  path: "/app",
  operationId: "getApp",
  tag: "Platform",
  summary: "Resolve the application and environment of the calling key",
  auth: "key",
  success: {
    status: 200,
    description: "The application the key belongs to.",
    schema: applicationSchema,
    example: () => ({
      object: "application",
      id: "app_2c8f0d4b6a1e3f5c7d9b0a2e",
      name: "Example Health",
      environment: "sandbox",
      status: "sandbox",
      categoryAllowlist: ["medications", "allergies", "labs"],
      syncMode: "one-time",
      productionEnabled: false,
    }),
  },
  errors: [],
});
