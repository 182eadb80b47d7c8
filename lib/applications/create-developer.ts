import { hashPassword } from "@/lib/auth";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";

export async function createDeveloper(input: { email: string; name: string; password: string }, tx: Tx = db()) {
  return tx.developer.create({
    data: {
      id: newId("dev_"),
      email: input.email.trim().toLowerCase(),
      name: input.name,
      passwordHash: await hashPassword(input.password),
    },
  });
}
