import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import nextEnv from "@next/env";

const GENERATED = ["CHARTKEY_SECRET", "AUTH_SECRET"] as const;

/**
 * Loads `.env*` files the way Next.js does, after making sure `.env.local` holds the secrets a development
 * install needs (generated once, random per machine). Variables already in the environment always win, so
 * production sets them explicitly and never relies on this file.
 */
export async function loadLocalEnv(dir = process.cwd()): Promise<string[]> {
  const file = path.join(dir, ".env.local");
  const content = existsSync(file) ? await readFile(file, "utf8") : "";
  const generated: string[] = [];
  for (const name of GENERATED) {
    if (process.env[name] || new RegExp(`^${name}=`, "m").test(content)) continue;
    const prefix = content === "" || content.endsWith("\n") || generated.length > 0 ? "" : "\n";
    await appendFile(file, `${prefix}${name}=${randomBytes(32).toString("base64url")}\n`, { mode: 0o600 });
    generated.push(name);
  }
  nextEnv.loadEnvConfig(dir, process.env.NODE_ENV !== "production", { info: () => {}, error: console.error });
  return generated;
}
