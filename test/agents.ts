import type { Category } from "@/lib/records";
import { request } from "./api-server";
import { sharingSubject } from "./records";

export type Issued = { id: string; token: string; expiresAt: string; categories: string[]; operations: string[] };

/** An application with a subject sharing records, and the started server's answer to issuing a credential for it. */
export async function subjectWithCredential(origin: string, grant: { categories?: Category[]; operations?: string[]; durationSeconds?: number } = {}) {
  const sharing = await sharingSubject({ granted: ["medications", "allergies", "labs", "conditions"] });
  const issued = await issueCredential(origin, sharing.sandboxKey, {
    subject: sharing.subject.id,
    categories: grant.categories ?? ["medications", "labs"],
    purpose: "Summarize current medications before the visit",
    durationSeconds: grant.durationSeconds ?? 900,
    ...(grant.operations ? { operations: grant.operations } : {}),
  });
  return { ...sharing, credential: issued };
}

export async function issueCredential(origin: string, key: string, body: unknown): Promise<Issued> {
  const answer = await request(origin, "POST", "/api/v1/agent-credentials", { token: key, body });
  if (answer.status !== 201) throw new Error(`issuing a credential answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as unknown as Issued;
}
