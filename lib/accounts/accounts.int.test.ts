import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import {
  AccountError,
  PASSWORD_CHECK_POLICY,
  signUp,
  SIGN_IN_ACCOUNT_POLICY,
  SIGN_IN_ADDRESS_POLICY,
  signUpSchema,
  TooManyAttemptsError,
  verifySignIn,
} from "@/lib/accounts";

let counter = 0;
const address = () => `203.0.113.${++counter}`;
const PASSWORD = "correct horse battery";
const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

describe("dashboard accounts", () => {
  it("signs up with a lowercased email and an argon2id hash; a taken email is refused", async () => {
    const account = await signUp({ email: "  New.Dev@Example.TEST ", name: "New Dev", password: PASSWORD }, address());
    expect(account).toMatchObject({ email: "new.dev@example.test", name: "New Dev" });
    const stored = await db().developer.findUniqueOrThrow({ where: { id: account.id } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    await expect(signUp({ email: "NEW.dev@example.test", name: "Again", password: PASSWORD }, address())).rejects.toMatchObject({ code: "email_taken" });
    expect(signUpSchema.safeParse({ email: "a@example.test", name: "A", password: "short" }).success).toBe(false);
    await expect(signUp({ email: "a@example.test", name: "A", password: "123456789" }, address())).rejects.toThrow();
  });

  it("verifies the password, case-insensitively on the email; wrong passwords and unknown emails look alike", async () => {
    const account = await signUp({ email: "signin@example.test", name: "S", password: PASSWORD }, address());
    expect(await verifySignIn({ email: "SignIn@Example.test", password: PASSWORD, address: address() })).toMatchObject({ id: account.id });
    const wrong = await verifySignIn({ email: "signin@example.test", password: "nope-nope-nope", address: address() }).catch((error: unknown) => error);
    const unknown = await verifySignIn({ email: "nobody@example.test", password: PASSWORD, address: address() }).catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(AccountError);
    expect(unknown).toBeInstanceOf(AccountError);
    expect([(wrong as AccountError).code, (wrong as AccountError).message]).toEqual([(unknown as AccountError).code, (unknown as AccountError).message]);
  });

  it("five failures for an account from one address refuse that address for the account, never the owner elsewhere", async () => {
    await signUp({ email: "target@example.test", name: "T", password: PASSWORD }, address());
    const guesser = address();
    for (let i = 0; i < SIGN_IN_ACCOUNT_POLICY.points; i++) {
      await expect(verifySignIn({ email: "target@example.test", password: `guess-${i}-guess`, address: guesser })).rejects.toMatchObject({ code: "invalid_credentials" });
    }
    const throttled = await refusal(verifySignIn({ email: "target@example.test", password: PASSWORD, address: guesser }));
    expect(throttled).toBeInstanceOf(TooManyAttemptsError);
    expect(throttled).toMatchObject({ scope: "account", message: expect.stringMatching(/^Too many failed sign-in attempts for this account from your network address\. Try again in 1[45] minutes\.$/) });
    expect((throttled as TooManyAttemptsError).retryAfterSeconds).toBeGreaterThan(800);
    expect((throttled as TooManyAttemptsError).retryAfterSeconds).toBeLessThanOrEqual(900);
    // The owner, from an address without recent failures, signs in with the right password.
    expect(await verifySignIn({ email: "target@example.test", password: PASSWORD, address: address() })).toMatchObject({ email: "target@example.test" });
    // The guesser's address may still sign in to another account.
    await signUp({ email: "bystander@example.test", name: "B", password: PASSWORD }, address());
    expect(await verifySignIn({ email: "bystander@example.test", password: PASSWORD, address: guesser })).toMatchObject({ email: "bystander@example.test" });
  });

  it("an IPv6 /64 is one address: failures from any of its addresses count together", async () => {
    await signUp({ email: "six@example.test", name: "Six", password: PASSWORD }, address());
    for (let i = 0; i < SIGN_IN_ACCOUNT_POLICY.points; i++) {
      await expect(verifySignIn({ email: "six@example.test", password: "wrong-password", address: `2001:db8:7:1::${i + 1}` })).rejects.toMatchObject({ code: "invalid_credentials" });
    }
    await expect(verifySignIn({ email: "six@example.test", password: PASSWORD, address: "2001:db8:7:1:ffff::1" })).rejects.toMatchObject({ code: "too_many_attempts", scope: "account" });
    expect(await verifySignIn({ email: "six@example.test", password: PASSWORD, address: "2001:db8:7:2::1" })).toMatchObject({ email: "six@example.test" });
  });

  it("attempts racing each other from one address are counted before any password is checked: at most 5 are tried", async () => {
    await signUp({ email: "raced@example.test", name: "R", password: PASSWORD }, address());
    const from = address();
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => refusal(verifySignIn({ email: "raced@example.test", password: `race-${i}-guess`, address: from }))));
    const tried = outcomes.filter((outcome) => outcome instanceof AccountError && !(outcome instanceof TooManyAttemptsError));
    expect(tried.length).toBeLessThanOrEqual(SIGN_IN_ACCOUNT_POLICY.points);
    expect(outcomes.filter((outcome) => outcome instanceof TooManyAttemptsError).length).toBeGreaterThanOrEqual(12 - SIGN_IN_ACCOUNT_POLICY.points);
  });

  it("a success clears the account's failures", async () => {
    await signUp({ email: "forgetful@example.test", name: "F", password: PASSWORD }, address());
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < SIGN_IN_ACCOUNT_POLICY.points - 1; i++) {
        await expect(verifySignIn({ email: "forgetful@example.test", password: "wrong-password", address: address() })).rejects.toMatchObject({ code: "invalid_credentials" });
      }
      await verifySignIn({ email: "forgetful@example.test", password: PASSWORD, address: address() });
    }
  });

  it("throttles an address after 20 failures across accounts, and says it is the address", async () => {
    const from = "198.51.100.77";
    await signUp({ email: "victim@example.test", name: "V", password: PASSWORD }, address());
    for (let i = 0; i < SIGN_IN_ADDRESS_POLICY.points; i++) {
      await expect(verifySignIn({ email: `spray-${i}@example.test`, password: "wrong-password", address: from })).rejects.toMatchObject({ code: "invalid_credentials" });
    }
    const throttled = await refusal(verifySignIn({ email: "victim@example.test", password: PASSWORD, address: from }));
    expect(throttled).toMatchObject({ code: "too_many_attempts", scope: "address", message: expect.stringMatching(/^Too many failed sign-in attempts from your network address\./) });
    expect((throttled as Error).message).not.toContain("account");
    expect(await verifySignIn({ email: "victim@example.test", password: PASSWORD, address: address() })).toMatchObject({ email: "victim@example.test" });
  });

  it("bounds the password checks (argon2) one address may cause per minute, right passwords and sign-ups included", async () => {
    const from = address();
    await signUp({ email: "busy@example.test", name: "Busy", password: PASSWORD }, from);
    for (let i = 1; i < PASSWORD_CHECK_POLICY.points; i++) {
      await verifySignIn({ email: "busy@example.test", password: PASSWORD, address: from });
    }
    const throttled = await refusal(verifySignIn({ email: "busy@example.test", password: PASSWORD, address: from }));
    expect(throttled).toMatchObject({ code: "too_many_attempts", scope: "rate", message: "Too many sign-in and sign-up attempts from your network address. Try again in 1 minute." });
    await expect(signUp({ email: "busy-2@example.test", name: "Busy", password: PASSWORD }, from)).rejects.toMatchObject({ scope: "rate" });
    expect(await db().developer.count({ where: { email: "busy-2@example.test" } })).toBe(0);
    // Another address is not affected.
    expect(await verifySignIn({ email: "busy@example.test", password: PASSWORD, address: address() })).toMatchObject({ email: "busy@example.test" });
  });
});
