import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, pgPool } from "./client";
import { Prisma } from "./generated/client";
import { SERIALIZATION_ATTEMPTS, withTransaction } from "./transaction";

// A second connection outside the pool, to commit changes while a transaction under test is open.
let other: pg.Client;
beforeAll(async () => {
  other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
});
afterAll(async () => {
  await other.end();
});

// The rate-limit table is the schema's simplest: a key and a number.
const points = async (key: string) => (await db().rateLimit.findUnique({ where: { key } }))?.points;

/** Resolves once `parties` callers have arrived, so concurrent transactions can be lined up at one point. */
function barrier(parties: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return async () => {
    if (++arrived === parties) open();
    await opened;
  };
}

/** Connections the pool has handed out and not had back. */
const checkedOut = () => pgPool().totalCount - pgPool().idleCount;

describe("withTransaction", () => {
  it("commits what the function wrote when it resolves, and returns its result", async () => {
    const result = await withTransaction("ReadCommitted", async (tx) => {
      await tx.rateLimit.create({ data: { key: "commit:a", points: 1 } });
      await tx.rateLimit.create({ data: { key: "commit:b", points: 2 } });
      return "done";
    });
    expect(result).toBe("done");
    const { rows } = await other.query(`SELECT key FROM rate_limits WHERE key LIKE 'commit:%' ORDER BY key`);
    expect(rows.map((row) => row.key)).toEqual(["commit:a", "commit:b"]);
  });

  it("rolls back everything when the function throws, passes the error on, and does not retry it", async () => {
    let attempts = 0;
    const failing = withTransaction("Serializable", async (tx) => {
      attempts++;
      await tx.rateLimit.create({ data: { key: "rollback:a", points: 1 } });
      throw new Error("validation failed halfway");
    });
    await expect(failing).rejects.toThrow("validation failed halfway");
    expect(attempts).toBe(1);
    expect(await points("rollback:a")).toBeUndefined();
  });

  it("RepeatableRead reads one snapshot while another connection commits; ReadCommitted sees the commit", async () => {
    await db().rateLimit.create({ data: { key: "snapshot", points: 1 } });
    const repeatable = await withTransaction("RepeatableRead", async (tx) => {
      const before = (await tx.rateLimit.findUniqueOrThrow({ where: { key: "snapshot" } })).points;
      await other.query(`UPDATE rate_limits SET points = 2 WHERE key = 'snapshot'`);
      const after = (await tx.rateLimit.findUniqueOrThrow({ where: { key: "snapshot" } })).points;
      return [before, after];
    });
    expect(repeatable).toEqual([1, 1]);
    expect(await points("snapshot")).toBe(2);

    // The contrast proves the isolation level reaches the database rather than PostgreSQL's default.
    const committed = await withTransaction("ReadCommitted", async (tx) => {
      const before = (await tx.rateLimit.findUniqueOrThrow({ where: { key: "snapshot" } })).points;
      await other.query(`UPDATE rate_limits SET points = 3 WHERE key = 'snapshot'`);
      const after = (await tx.rateLimit.findUniqueOrThrow({ where: { key: "snapshot" } })).points;
      return [before, after];
    });
    expect(committed).toEqual([2, 3]);
  });

  it("reruns a RepeatableRead transaction whose row another connection changed, so no update is lost", async () => {
    await db().rateLimit.create({ data: { key: "counter", points: 1 } });
    const seen: number[] = [];
    await withTransaction("RepeatableRead", async (tx) => {
      const current = (await tx.rateLimit.findUniqueOrThrow({ where: { key: "counter" } })).points;
      seen.push(current);
      if (seen.length === 1) await other.query(`UPDATE rate_limits SET points = 10 WHERE key = 'counter'`);
      // Fails with SQLSTATE 40001 on the first run: the row changed after this transaction's snapshot.
      await tx.rateLimit.update({ where: { key: "counter" }, data: { points: current + 1 } });
    });
    expect(seen).toEqual([1, 10]);
    expect(await points("counter")).toBe(11);
  });

  it("retries Serializable transactions that conflict at commit until both succeed in a serial order", async () => {
    const bothHaveRead = barrier(2);
    const attempts = { first: 0, second: 0 };
    const lastSeen = { first: -1, second: -1 };
    // Each counts the claims, then adds its own: run concurrently, each reads what the other writes (write skew),
    // which SERIALIZABLE must refuse for one of them.
    const claim = (name: "first" | "second") =>
      withTransaction("Serializable", async (tx) => {
        attempts[name]++;
        lastSeen[name] = await tx.rateLimit.count({ where: { key: { startsWith: "claim:" } } });
        if (attempts[name] === 1) await bothHaveRead();
        await tx.rateLimit.create({ data: { key: `claim:${name}:${attempts[name]}`, points: lastSeen[name] } });
      });

    await Promise.all([claim("first"), claim("second")]);
    expect(attempts.first + attempts.second).toBeGreaterThanOrEqual(3);
    // As if one ran after the other: the later one saw the earlier one's claim.
    expect([lastSeen.first, lastSeen.second].sort()).toEqual([0, 1]);
    expect(await db().rateLimit.count({ where: { key: { startsWith: "claim:" } } })).toBe(2);
    // A COMMIT that fails must still hand its connection back to the pool.
    expect(checkedOut()).toBe(0);
  });

  it("gives up after SERIALIZATION_ATTEMPTS runs, and never retries under ReadCommitted", async () => {
    const conflict = () =>
      new Prisma.PrismaClientKnownRequestError("Transaction failed due to a write conflict or a deadlock", {
        code: "P2034",
        clientVersion: Prisma.prismaVersion.client,
      });
    let runs = 0;
    await expect(
      withTransaction("Serializable", async () => {
        runs++;
        throw conflict();
      }),
    ).rejects.toMatchObject({ code: "P2034" });
    expect(runs).toBe(SERIALIZATION_ATTEMPTS);

    runs = 0;
    await expect(
      withTransaction("ReadCommitted", async () => {
        runs++;
        throw conflict();
      }),
    ).rejects.toMatchObject({ code: "P2034" });
    expect(runs).toBe(1);
  });
});
