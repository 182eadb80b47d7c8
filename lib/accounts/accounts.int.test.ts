import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { AccountError, signUp, SIGN_IN_ACCOUNT_POLICY, signUpSchema, TooManyAttemptsError, verifySignIn } from "@/lib/accounts";

let counter = 0;
const address = () => `203.0.113.${++counter}`;
const PASSWORD = "correct horse battery";

describe("dashboard accounts", () => {
  it("signs up with a lowercased email and an argon2id hash; a taken email is refused", async () => {
    const account = await signUp({ email: "  New.Dev@Example.TEST ", name: "New Dev", password: PASSWORD });
    expect(account).toMatchObject({ email: "new.dev@example.test", name: "New Dev" });
    const stored = await db().developer.findUniqueOrThrow({ where: { id: account.id } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    await expect(signUp({ email: "NEW.dev@example.test", name: "Again", password: PASSWORD })).rejects.toMatchObject({ code: "email_taken" });
    expect(signUpSchema.safeParse({ email: "a@example.test", name: "A", password: "short" }).success).toBe(false);
    await expect(signUp({ email: "a@example.test", name: "A", password: "123456789" })).rejects.toThrow();
  });

  it("verifies the password, case-insensitively on the email; wrong passwords and unknown emails look alike", async () => {
    const account = await signUp({ email: "signin@example.test", name: "S", password: PASSWORD });
    expect(await verifySignIn({ email: "SignIn@Example.test", password: PASSWORD, address: address() })).toMatchObject({ id: account.id });
    const wrong = await verifySignIn({ email: "signin@example.test", password: "nope-nope-nope", address: address() }).catch((error: unknown) => error);
    const unknown = await verifySignIn({ email: "nobody@example.test", password: PASSWORD, address: address() }).catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(AccountError);
    expect(unknown).toBeInstanceOf(AccountError);
    expect([(wrong as AccountError).code, (wrong as AccountError).message]).toEqual([(unknown as AccountError).code, (unknown as AccountError).message]);
  });

  it("throttles an account after 5 failures in 15 minutes, from any address, even with the right password", async () => {
    await signUp({ email: "target@example.test", name: "T", password: PASSWORD });
    for (let i = 0; i < SIGN_IN_ACCOUNT_POLICY.points; i++) {
      await expect(verifySignIn({ email: "target@example.test", password: `guess-${i}-guess`, address: address() })).rejects.toMatchObject({ code: "invalid_credentials" });
    }
    const throttled = await verifySignIn({ email: "target@example.test", password: PASSWORD, address: address() }).catch((error: unknown) => error);
    expect(throttled).toBeInstanceOf(TooManyAttemptsError);
    expect(throttled).toMatchObject({ scope: "account" });
    expect((throttled as TooManyAttemptsError).retryAfterSeconds).toBeGreaterThan(800);
    expect((throttled as TooManyAttemptsError).retryAfterSeconds).toBeLessThanOrEqual(900);
    // Another account is not affected.
    await signUp({ email: "bystander@example.test", name: "B", password: PASSWORD });
    expect(await verifySignIn({ email: "bystander@example.test", password: PASSWORD, address: address() })).toMatchObject({ email: "bystander@example.test" });
  });

  it("attempts racing each other are counted before any password is checked: at most 5 are tried", async () => {
    await signUp({ email: "raced@example.test", name: "R", password: PASSWORD });
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => verifySignIn({ email: "raced@example.test", password: `race-${i}-guess`, address: address() }).catch((error: unknown) => error)),
    );
    const tried = outcomes.filter((outcome) => outcome instanceof AccountError && !(outcome instanceof TooManyAttemptsError));
    expect(tried.length).toBeLessThanOrEqual(SIGN_IN_ACCOUNT_POLICY.points);
    expect(outcomes.filter((outcome) => outcome instanceof TooManyAttemptsError).length).toBeGreaterThanOrEqual(12 - SIGN_IN_ACCOUNT_POLICY.points);
  });

  it("a success clears the account's failures", async () => {
    await signUp({ email: "forgetful@example.test", name: "F", password: PASSWORD });
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < SIGN_IN_ACCOUNT_POLICY.points - 1; i++) {
        await expect(verifySignIn({ email: "forgetful@example.test", password: "wrong-password", address: address() })).rejects.toMatchObject({ code: "invalid_credentials" });
      }
      await verifySignIn({ email: "forgetful@example.test", password: PASSWORD, address: address() });
    }
  });

  it("throttles an address after 20 failures across accounts", async () => {
    const from = "198.51.100.77";
    await signUp({ email: "victim@example.test", name: "V", password: PASSWORD });
    for (let i = 0; i < 20; i++) {
      await expect(verifySignIn({ email: `spray-${i}@example.test`, password: "wrong-password", address: from })).rejects.toMatchObject({ code: "invalid_credentials" });
    }
    await expect(verifySignIn({ email: "victim@example.test", password: PASSWORD, address: from })).rejects.toMatchObject({ code: "too_many_attempts", scope: "address" });
    expect(await verifySignIn({ email: "victim@example.test", password: PASSWORD, address: address() })).toMatchObject({ email: "victim@example.test" });
  });
});
