import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { RUNTIME_FILE } from "@/lib/db";

/** A fresh sandbox key for the development application of the platform the browser tests started (`npm run dev:key`). */
export function devSandboxKey(): string {
  const output = execFileSync("npx", ["tsx", "scripts/dev-key.ts"], { env: { ...process.env, CHARTKEY_DATA_DIR: process.env.E2E_DATA_DIR }, encoding: "utf8" });
  const key = /CK_SANDBOX_KEY=(ck_test_\S+)/.exec(output)?.[1];
  if (!key) throw new Error(`npm run dev:key printed no key:\n${output}`);
  return key;
}

/** The URL of the running platform's embedded database, for tests that set what no API sets yet. */
export function platformDatabaseUrl(): string {
  return (JSON.parse(readFileSync(path.join(process.env.E2E_DATA_DIR!, "postgres", RUNTIME_FILE), "utf8")) as { url: string }).url;
}
