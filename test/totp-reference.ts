import { createHmac } from "node:crypto";

/**
 * An RFC 6238 code (SHA-1, 6 digits, 30 s) computed with Node's HMAC, independently of the platform's otpauth, for the
 * integration and browser tests: `stepOffset` picks a neighbouring step (the server accepts one either side, and each
 * step once).
 */
export function totpCode(base32: string, stepOffset = 0, at = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of base32.replace(/=+$/, "")) bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30) + stepOffset));
  const hmac = createHmac("sha1", key).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0xf;
  return ((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, "0");
}
