import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { PROVIDERS } from "@/lib/sandbox";

// The platform's modules are loaded more than once in one process (the platform server's graph, and the bundles
// Next.js built for pages and server actions). Here every module that keeps process-wide state is loaded twice, as
// two such graphs would load it, and each state must be one instance across the two copies.

// Nothing connects: pools and clients are only constructed.
vi.stubEnv("DATABASE_URL", "postgresql://127.0.0.1:9/never-connected");
afterAll(() => vi.unstubAllEnvs());

/** Every lib/ module that keeps process-wide state (they all do it through processState, which the linter enforces). */
const STATEFUL = fs
  .readdirSync("lib", { recursive: true, encoding: "utf8" })
  .filter((file) => /\.tsx?$/.test(file) && !file.includes(".test.") && !file.startsWith(`db${path.sep}generated`) && file !== "process-state.ts")
  .filter((file) => /\bprocessState[<(]/.test(fs.readFileSync(path.join("lib", file), "utf8")))
  .map((file) => path.resolve("lib", file));

type Copy = {
  modules: Record<string, unknown>[];
  state: typeof import("./process-state");
  db: typeof import("@/lib/db");
  http: typeof import("@/lib/http");
  auth: typeof import("@/lib/auth");
  demo: typeof import("@/lib/demo");
  openapi: typeof import("@/lib/openapi");
  ehr: typeof import("@/lib/ehr");
  audit: typeof import("@/lib/audit");
};

/** A fresh copy of every stateful module and of the domains' entry points. */
async function loadCopy(): Promise<Copy> {
  vi.resetModules();
  const modules = [];
  for (const file of STATEFUL) modules.push((await import(/* @vite-ignore */ file)) as Record<string, unknown>);
  return {
    modules,
    state: await import("./process-state"),
    db: await import("@/lib/db"),
    http: await import("@/lib/http"),
    auth: await import("@/lib/auth"),
    demo: await import("@/lib/demo"),
    openapi: await import("@/lib/openapi"),
    ehr: await import("@/lib/ehr"),
    audit: await import("@/lib/audit"),
  };
}

describe("process-wide state is one instance, however often its module is loaded", () => {
  it("finds the modules that keep state, including the ones once kept per copy", () => {
    const names = STATEFUL.map((file) => path.relative("lib", file).split(path.sep).join("/"));
    expect(names).toEqual(expect.arrayContaining(["api/auth-failure-limit.ts", "queue/send-job.ts", "http/rate-limit.ts", "db/client.ts", "auth/authenticate-key.ts"]));
  });

  it("two copies of every stateful module share each state", async () => {
    const first = await loadCopy();
    const second = await loadCopy();
    expect(second.modules[0]).not.toBe(first.modules[0]);
    expect(second.state.processState).not.toBe(first.state.processState);

    // The states the copies make when loaded or first used, each made once.
    expect(second.db.db()).toBe(first.db.db());
    expect(second.db.pgPool()).toBe(first.db.pgPool());
    expect(second.auth.keyAuthenticator()).toBe(first.auth.keyAuthenticator());
    expect(second.http.postgresLimiter(second.http.KEY_POLICY)).toBe(first.http.postgresLimiter(first.http.KEY_POLICY));
    expect(second.openapi.getPlatformOpenApi()).toBe(first.openapi.getPlatformOpenApi());
    const names = first.state.processStateNames();
    expect(names).toEqual(expect.arrayContaining(["queue.sender", "api.auth-failure-blocked", "http.rate-limiters", "jobs.queue-errors", "log.destination"]));
    for (const name of names) {
      expect(second.state.processState(name, () => `a second ${name}`), name).toBe(first.state.processState(name, () => `a second ${name}`));
    }
    expect(second.state.processStateNames()).toEqual(names);

    // What one copy changes, the other sees.
    const restore = first.demo.setDemoClock(() => 1_234);
    expect(second.demo.demoNow()).toBe(1_234);
    restore();
    expect(second.demo.demoNow()).not.toBe(1_234);
    first.audit.withAuditAddress("192.0.2.7", () => expect(second.audit.currentAuditAddress()).toBe("192.0.2.7"));
    const providerId = first.ehr.ehrPatients(PROVIDERS[0]!.id)[0]!.providerId;
    expect(second.ehr.searchableTypes(providerId)).toBe(first.ehr.searchableTypes(providerId));
  });
});

describe("resetProcessState", () => {
  it("puts selected slots back to their creator's value, in place where modules hold them, and leaves the rest", async () => {
    const { processState, resetProcessState } = await import("./process-state");
    const map = processState("test.reset-map", () => new Map([["made", 1]]));
    const set = processState("test.reset-set", () => new Set(["made"]));
    const list = processState("test.reset-list", (): string[] => ["made"]);
    const object = processState("test.reset-object", (): Record<string, unknown> => ({ made: true }));
    const instance = processState("test.reset-instance", () => new URL("https://made.example"));
    const kept = processState("test.reset-kept", () => new Map<string, number>());
    map.set("changed", 2);
    set.add("changed");
    list.push("changed");
    object.changed = true;
    kept.set("changed", 2);

    resetProcessState((name) => name.startsWith("test.reset-") && name !== "test.reset-kept");

    expect([...map]).toEqual([["made", 1]]);
    expect([...set]).toEqual(["made"]);
    expect(list).toEqual(["made"]);
    expect(object).toEqual({ made: true });
    expect(processState("test.reset-map", () => new Map())).toBe(map);
    expect(processState("test.reset-object", () => ({}))).toBe(object);
    const replaced = processState("test.reset-instance", () => new URL("https://other.example"));
    expect(replaced).not.toBe(instance);
    expect(replaced.href).toBe("https://made.example/");
    expect([...kept]).toEqual([["changed", 2]]);
  });
});
