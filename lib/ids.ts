import { randomBytes } from "node:crypto";
import { processState } from "@/lib/process-state";
import { sha256Bytes } from "@/lib/sha256";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ID_LENGTH = 24;

export type IdPrefix =
  | "u_" | "cs_" | "rec_" | "evt_" | "cr_" | "cred_" | "run_" | "tfs_" | "app_" | "src_"
  | "dev_" | "inv_" | "key_" | "pat_" | "prov_" | "whd_" | "wha_" | "idem_" | "req_" | "imp_" | "sauth_" | "preq_" | "aud_" | "mail_" | "etk_"
  | "fhx_" | "fhf_";

const BASE62_CODES = Array.from(BASE62, (char) => char.charCodeAt(0));

/**
 * The prefix, then base62 characters of the bytes `source` gives until there are ID_LENGTH, as one flat string:
 * appended a character at a time, an id was a rope of some 25 strings (about 800 bytes, where it needs 48), held
 * so wherever ids are kept by the thousand (an import's record ids).
 */
function idOf(prefix: IdPrefix, source: () => Uint8Array): string {
  const codes = Array.from(prefix, (char) => char.charCodeAt(0));
  const length = codes.length + ID_LENGTH;
  while (codes.length < length) {
    for (const byte of source()) {
      // Rejection sampling keeps every character uniformly likely (256 is not a multiple of 62).
      if (byte >= 248) continue;
      codes.push(BASE62_CODES[byte % 62]!);
      if (codes.length === length) break;
    }
  }
  return String.fromCharCode(...codes);
}

/** What `newId(prefix)` and `stableId(prefix, ...)` make, and nothing else: the prefix and 24 base62 characters. */
export function idPattern(prefix: IdPrefix): RegExp {
  return new RegExp(`^${prefix}[0-9A-Za-z]{${ID_LENGTH}}$`);
}

// Random bytes drawn from the CSPRNG 4 KB at a time and handed out 48 at a time, as crypto.randomUUID caches its
// own: one call per id cost more than the rest of a webhook attempt's bookkeeping.
const entropy = processState("ids.entropy", () => ({ pool: Buffer.alloc(0), offset: 0 }));
function randomChunk(): Uint8Array {
  if (entropy.offset + 48 > entropy.pool.length) {
    entropy.pool = randomBytes(4096);
    entropy.offset = 0;
  }
  const chunk = entropy.pool.subarray(entropy.offset, entropy.offset + 48);
  entropy.offset += 48;
  return chunk;
}

/** A new random identifier: prefix + 24 base62 characters (~142 bits). */
export function newId(prefix: IdPrefix): string {
  return idOf(prefix, randomChunk);
}

/**
 * A deterministic identifier derived from its parts, for ids that must stay stable across re-imports
 * (record ids). Parts are joined unambiguously before hashing.
 */
export function stableId(prefix: IdPrefix, ...parts: string[]): string {
  let counter = 0;
  return idOf(prefix, () => sha256Bytes(JSON.stringify([counter++, ...parts])));
}
