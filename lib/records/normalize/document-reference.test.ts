import { describe, expect, it } from "vitest";
import { normalizeOne, skipReason } from "@/test/normalizer";

const inlineText = Buffer.from("Patient is doing well.").toString("base64");

const documentReference = {
  resourceType: "DocumentReference",
  id: "d1",
  status: "current",
  docStatus: "final",
  type: { coding: [{ system: "http://loinc.org", code: "34117-2", display: "History and physical note" }] },
  category: [{ coding: [{ code: "clinical-note", display: "Clinical Note" }] }],
  date: "2024-02-29T23:59:59.5+14:00",
  author: [{ reference: "Practitioner/dr1" }, { display: "Nurse Joy" }],
  content: [
    { attachment: { contentType: "text/plain", data: inlineText } },
    { attachment: { contentType: "application/pdf", url: "https://ehr.example.org/Binary/7", size: 2048, title: "Note" } },
  ],
};

describe("normalizeDocumentReference", () => {
  it("keeps attachment metadata, and inline text as text, never other inline content", () => {
    const record = normalizeOne("documents", documentReference, [
      { resourceType: "Practitioner", id: "dr1", name: [{ text: "Dr. Who" }] },
    ]);
    expect(record).toMatchObject({
      status: "current",
      docStatus: "final",
      code: { text: "History and physical note" },
      categories: [{ text: "Clinical Note" }],
      date: "2024-02-29T23:59:59.5+14:00",
      authors: ["Dr. Who", "Nurse Joy"],
      attachments: [
        { contentType: "text/plain", title: null, url: null, size: 22, hasData: true, text: "Patient is doing well." },
        { contentType: "application/pdf", title: "Note", url: "https://ehr.example.org/Binary/7", size: 2048, hasData: false, text: null },
      ],
    });
    expect(JSON.stringify(record)).not.toContain(inlineText);
  });

  const withContent = (attachment: object) => ({ ...documentReference, content: [{ attachment }] });
  const base64 = (text: string) => Buffer.from(text).toString("base64");

  it("reads text/html as text without its tags, decodes the charset given, and copies no other inline content", () => {
    const html = normalizeOne("documents", withContent({ contentType: "text/html", data: base64("<html><style>p{}</style><p>Fever &amp; cough</p></html>") }));
    expect(html.attachments[0]!.text).toBe("Fever & cough");
    const latin1 = normalizeOne("documents", withContent({ contentType: "text/plain; charset=ISO-8859-1", data: Buffer.from("Caf\xe9", "latin1").toString("base64") }));
    expect(latin1.attachments[0]!.text).toBe("Café");
    const pdf = normalizeOne("documents", withContent({ contentType: "application/pdf", data: base64("%PDF-1.4 note") }));
    expect(pdf.attachments[0]).toMatchObject({ hasData: true, text: null });
    expect(normalizeOne("documents", withContent({ contentType: "text/plain; charset=x-unknown", data: base64("note") })).attachments[0]!.text).toBeNull();
  });

  it("cuts text longer than 64 KiB on a character boundary and says so in a warning", () => {
    // One ASCII byte first, so that the 64 KiB bound falls inside a two-byte character.
    const long = `a${"é".repeat(40 * 1024)}`;
    const record = normalizeOne("documents", withContent({ contentType: "text/plain", data: base64(long) }));
    const text = record.attachments[0]!.text!;
    expect(Buffer.byteLength(text)).toBe(64 * 1024 - 1);
    expect(long.startsWith(text)).toBe(true);
    expect(record.warnings).toEqual(["attachment text is longer than 64 KiB: its text is cut at 64 KiB"]);
    expect(normalizeOne("documents", documentReference).warnings).toBeUndefined();
  });

  it("falls back to the category when the type is missing, and skips a document with nothing to name it", () => {
    const untyped = { ...documentReference, type: undefined };
    expect(normalizeOne("documents", untyped).code.text).toBe("Clinical Note");
    expect(skipReason({ ...untyped, category: [] })).toBe("DocumentReference has no type, category or description");
  });
});
