import { ApiError } from "@/lib/http";
import type { KeyAuth } from "./key-auth";

/** Sandbox controls (simulation, the synthetic TEFCA sandbox) answer a live key 403 `sandbox_only`. */
export function requireSandbox(key: KeyAuth): void {
  if (key.environment !== "sandbox") throw new ApiError("sandbox_only", "Sandbox controls need a sandbox key (ck_test_).");
}
