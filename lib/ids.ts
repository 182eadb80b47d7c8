import { createHash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ID_LENGTH = 24;

export type IdPrefix =
  | "u_" | "cs_" | "rec_" | "evt_" | "cr_" | "cred_" | "run_" | "tfs_" | "app_" | "src_"
  | "dev_" | "inv_" | "key_" | "pat_" | "prov_" | "whd_" | "wha_" | "idem_" | "req_" | "imp_" | "sauth_" | "preq_" | "aud_";

function toBase62(bytes: Uint8Array, length: number): string {
  // Rejection sampling keeps every character uniformly likely (256 is not a multiple of 62).
  let out = "";
  for (const byte of bytes) {
    if (byte >= 248) continue;
    out += BASE62[byte % 62];
    if (out.length === length) return out;
  }
  return out;
}

/** What `newId(prefix)` and `stableId(prefix, ...)` make, and nothing else: the prefix and 24 base62 characters. */
export function idPattern(prefix: IdPrefix): RegExp {
  return new RegExp(`^${prefix}[0-9A-Za-z]{${ID_LENGTH}}$`);
}

/** A new random identifier: prefix + 24 base62 characters (~142 bits). */
export function newId(prefix: IdPrefix): string {
  let body = "";
  while (body.length < ID_LENGTH) body += toBase62(randomBytes(48), ID_LENGTH - body.length);
  return prefix + body;
}

/**
 * A deterministic identifier derived from its parts, for ids that must stay stable across re-imports
 * (record ids). Parts are joined unambiguously before hashing.
 */
export function stableId(prefix: IdPrefix, ...parts: string[]): string {
  let body = "";
  let counter = 0;
  while (body.length < ID_LENGTH) {
    const digest = createHash("sha256").update(JSON.stringify([counter++, ...parts])).digest();
    body += toBase62(digest, ID_LENGTH - body.length);
  }
  return prefix + body;
}
