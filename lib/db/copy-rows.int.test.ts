import { describe, expect, it } from "vitest";
import { pgPool } from "./client";
import { copyRows } from "./copy-rows";

describe("copyRows", () => {
  it("writes every value back exactly, the characters COPY's text format escapes and NULL included, in the caller's transaction", async () => {
    const client = await pgPool().connect();
    try {
      await client.query("BEGIN");
      await client.query(`CREATE TEMPORARY TABLE "CopyProbe" ("id" int, "text" text, "doc" jsonb) ON COMMIT DROP`);
      const awkward = 'tab\there, newline\nthere, return\r, backslash \\ and \\N, "quoted", ünïcode';
      const doc = JSON.stringify({ note: awkward, path: "C:\\records\\n" });
      // Enough rows to span several of the chunks the rows are sent in.
      const many = Array.from({ length: 3_000 }, (_, index) => [String(index + 3), `row ${index}`.repeat(20), null] as const);
      const written = await copyRows(client, "CopyProbe", ["id", "text", "doc"], [["1", awkward, doc], ["2", null, null], ...many]);
      expect(written).toBe(3_002);
      const { rows } = await client.query<{ id: number; text: string | null; doc: unknown }>(`SELECT "id", "text", "doc" FROM "CopyProbe" WHERE "id" <= 2 ORDER BY "id"`);
      expect(rows).toEqual([
        { id: 1, text: awkward, doc: { note: awkward, path: "C:\\records\\n" } },
        { id: 2, text: null, doc: null },
      ]);
      await client.query("ROLLBACK");
      // Rolled back with the transaction: the table (and its rows) are gone.
      expect((await client.query(`SELECT to_regclass('pg_temp."CopyProbe"') AS "table"`)).rows[0].table).toBeNull();
    } finally {
      client.release();
    }
  });

  it("fails as the statement would on a value its column cannot take, and the transaction rolls back whole", async () => {
    const client = await pgPool().connect();
    try {
      await client.query("BEGIN");
      await client.query(`CREATE TEMPORARY TABLE "CopyProbe" ("id" int) ON COMMIT DROP`);
      await expect(copyRows(client, "CopyProbe", ["id"], [["1"], ["not a number"]])).rejects.toThrow(/invalid input syntax for type integer/);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
  });
});
