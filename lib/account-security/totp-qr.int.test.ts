import jsQR from "jsqr";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { createTestDeveloper } from "@/test/factories";
import { totpCode } from "@/test/totp-reference";
import { beginTotpEnrolment, confirmTotpEnrolment, hasSecondFactor, startDashboardSession } from "@/lib/account-security";

/** Reads a QR code from a PNG data URL with decoders independent of the platform's (pngjs 7 and jsQR). */
function decodeQr(dataUrl: string): string {
  const match = /^data:image\/png;base64,(.+)$/.exec(dataUrl);
  if (!match) throw new Error(`not a PNG data URL: ${dataUrl.slice(0, 40)}`);
  const png = PNG.sync.read(Buffer.from(match[1]!, "base64"));
  const found = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!found) throw new Error("no QR code found in the image");
  return found.data;
}

describe("the authenticator app's QR code", () => {
  it("is the otpauth:// URI with the account and issuer, and its secret's codes enrol the app", async () => {
    const developer = await createTestDeveloper();
    const { session } = await startDashboardSession({ developerId: developer.id, userAgent: "test", address: "198.51.100.60", secondFactorPending: false });
    const started = (await beginTotpEnrolment(developer))!;
    const scanned = decodeQr(started.qrCode);
    expect(scanned).toBe(started.uri);

    // Key URI Format as authenticator apps read it: otpauth://totp/Issuer:account?secret=…&issuer=…
    const uri = new URL(scanned);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname.slice(1))).toBe(`Chartkey:${developer.email}`);
    expect(uri.searchParams.get("issuer")).toBe("Chartkey");
    expect(uri.searchParams.get("algorithm") ?? "SHA1").toBe("SHA1");
    expect(uri.searchParams.get("digits") ?? "6").toBe("6");
    expect(uri.searchParams.get("period") ?? "30").toBe("30");
    const secret = uri.searchParams.get("secret")!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    // A code computed from the scanned secret alone (test/totp-reference.ts, not otpauth) turns the app on.
    expect(await confirmTotpEnrolment(developer.id, session.id, totpCode(secret))).toMatchObject({ ok: true });
    expect(await hasSecondFactor(developer.id)).toBe(true);
  });

  it("a wrong secret's code is refused (the check above can fail)", async () => {
    const developer = await createTestDeveloper();
    const { session } = await startDashboardSession({ developerId: developer.id, userAgent: "test", address: "198.51.100.61", secondFactorPending: false });
    const started = (await beginTotpEnrolment(developer))!;
    const other = new URL(decodeQr((await beginTotpEnrolment(await createTestDeveloper()))!.qrCode)).searchParams.get("secret")!;
    expect(other).not.toBe(started.secret);
    expect(await confirmTotpEnrolment(developer.id, session.id, totpCode(other))).toMatchObject({ ok: false });
  });
});
