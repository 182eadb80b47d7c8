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
  it("keeps attachment metadata but never the inline content", () => {
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
        { contentType: "text/plain", title: null, url: null, size: 22, hasData: true },
        { contentType: "application/pdf", title: "Note", url: "https://ehr.example.org/Binary/7", size: 2048, hasData: false },
      ],
    });
    expect(JSON.stringify(record)).not.toContain(inlineText);
  });

  it("falls back to the category when the type is missing, and skips a document with nothing to name it", () => {
    const untyped = { ...documentReference, type: undefined };
    expect(normalizeOne("documents", untyped).code.text).toBe("Clinical Note");
    expect(skipReason({ ...untyped, category: [] })).toBe("DocumentReference has no type, category or description");
  });
});
