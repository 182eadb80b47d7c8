import { describe, expect, it } from "vitest";
import { createConnectSession } from "@/lib/connect";
import { dashboardSandboxAuth, listSandboxSubjects, readSandboxRecords, runSimulation, simulateConnectSession } from "@/lib/simulation";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { serveSyntheticEhr, simulatedUser } from "@/test/sandbox";

serveSyntheticEhr();

describe("the dashboard's sandbox views", () => {
  it("lists the application's sandbox subjects with receipt, sources and counts, and reads their records by category", async () => {
    const { application, sandboxKey } = await createTestApplication();
    const other = await createTestApplication();
    const { subject } = await simulatedUser(sandboxKey, "baseline-adult");
    await createTestSubject(application.id, "live");
    const otherSubject = await createTestSubject(other.application.id);

    const subjects = await listSandboxSubjects(application.id);
    expect(subjects.map((row) => row.id)).toEqual([subject]);
    const [listed] = subjects;
    expect(listed).toMatchObject({ scenario: "baseline-adult", receipt: { status: "active" } });
    expect(listed!.sources.length).toBeGreaterThan(0);
    expect(listed!.sources[0]).toMatchObject({ syncStatus: "synced", providerName: expect.any(String) });
    expect(listed!.recordCounts.medications).toBeGreaterThan(0);

    const page = await readSandboxRecords({ applicationId: application.id, subjectId: subject, category: "medications", limit: 1 });
    expect(page!.records).toHaveLength(1);
    expect(listed!.recordCounts.medications).toBeGreaterThan(1);
    const next = await readSandboxRecords({ applicationId: application.id, subjectId: subject, category: "medications", limit: 1, cursor: page!.nextCursor! });
    expect(next!.records[0]).not.toEqual(page!.records[0]);
    await expect(readSandboxRecords({ applicationId: application.id, subjectId: subject, category: "genomics" })).rejects.toThrow();

    expect(await readSandboxRecords({ applicationId: other.application.id, subjectId: subject, category: "medications" })).toBeNull();
    expect(await readSandboxRecords({ applicationId: application.id, subjectId: otherSubject.id, category: "medications" })).toBeNull();
    expect((await listSandboxSubjects(other.application.id)).map((row) => row.id)).toEqual([otherSubject.id]);
  });

  it("the dashboard drives Connect and simulation as the application's sandbox, without a key", async () => {
    const { application } = await createTestApplication();
    const auth = dashboardSandboxAuth(application);
    const session = await createConnectSession(auth, { categories: ["medications", "labs"] }, "http://localhost");
    await simulateConnectSession(auth, session.id, "baseline-adult", "http://localhost");
    await runSimulation(session.id);
    const subjects = await listSandboxSubjects(application.id);
    expect(subjects).toHaveLength(1);
    expect(subjects[0]!.receipt?.categories.sort()).toEqual(["labs", "medications"]);
  });
});
