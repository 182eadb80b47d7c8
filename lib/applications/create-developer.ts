import { hashPassword } from "@/lib/auth";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";

/** A dashboard account; `locale` is its email's language, `emailVerifiedAt` set only for accounts created verified. */
export async function createDeveloper(input: { email: string; name: string; password: string; locale?: string; emailVerifiedAt?: Date | null }, tx: Tx = db()) {
  return tx.developer.create({
    data: {
      id: newId("dev_"),
      email: input.email.trim().toLowerCase(),
      name: input.name,
      passwordHash: await hashPassword(input.password),
      locale: input.locale ?? "en",
      emailVerifiedAt: input.emailVerifiedAt ?? null,
    },
  });
}
