import { describe, expect, it } from "vitest";
import { auditExportStream, csvField } from "./export-audit";
import type { AuditEntryView } from "./read-audit";

const entry = (overrides: Partial<AuditEntryView>): AuditEntryView => ({
  id: "aud_1",
  createdAt: new Date("2026-11-25T10:00:00Z"),
  action: "webhook.url_change",
  actorType: "developer",
  actorId: "dev_1",
  actorLabel: "dev@example.test",
  address: "203.0.113.9",
  applicationId: "app_1",
  targetType: "application",
  targetId: "app_1",
  before: { webhookUrl: null },
  after: { webhookUrl: "https://hooks.example/x" },
  ...overrides,
});

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

async function* entries(...list: AuditEntryView[]) {
  yield* list;
}

describe("audit exports", () => {
  it("defuses spreadsheet formulas and keeps commas, quotes and line breaks inside their field", () => {
    for (const formula of ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"]) {
      expect(csvField(formula)).toBe(`"'${formula.replaceAll('"', '""')}"`);
    }
    expect(csvField('a "quoted", value\nnext')).toBe('"a ""quoted"", value\nnext"');
    expect(csvField(null)).toBe('""');
    expect(csvField({ role: "=cmd" })).toBe('"{""role"":""=cmd""}"');
    expect(csvField(new Date("2026-11-25T10:00:00Z"))).toBe('"2026-11-25T10:00:00.000Z"');
  });

  it("streams a CSV with a header and one CRLF line per entry", async () => {
    const csv = await text(auditExportStream(entries(entry({}), entry({ id: "aud_2", actorLabel: "=evil()@example.test" })), "csv"));
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("id,createdAt,action,actorType,actorId,actorLabel,address,applicationId,targetType,targetId,before,after");
    expect(lines[1]).toContain('"webhook.url_change"');
    expect(lines[2]).toContain(`"'=evil()@example.test"`);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
  });

  it("streams JSON as one array of the entries, empty included", async () => {
    const json = JSON.parse(await text(auditExportStream(entries(entry({}), entry({ id: "aud_2" })), "json")));
    expect(json.map((item: { id: string }) => item.id)).toEqual(["aud_1", "aud_2"]);
    expect(json[0]).toMatchObject({ createdAt: "2026-11-25T10:00:00.000Z", after: { webhookUrl: "https://hooks.example/x" } });
    expect(JSON.parse(await text(auditExportStream(entries(), "json")))).toEqual([]);
    expect(await text(auditExportStream(entries(), "csv"))).toBe("id,createdAt,action,actorType,actorId,actorLabel,address,applicationId,targetType,targetId,before,after\r\n");
  });
});
