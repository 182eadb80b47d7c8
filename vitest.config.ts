import path from "node:path";
import { defineConfig } from "vitest/config";
import LongestFirstSequencer from "./test/longest-first-sequencer.ts";

// In the repository the SDK is used from its source (tsconfig paths say the same for tsc and tsx); the published
// package is its tsc build, made by `npm run sdk:build` in the test command.
const alias = { "@chartkey/sdk": path.resolve(import.meta.dirname, "packages/sdk/src/index.ts"), "@": path.resolve(import.meta.dirname) };
const exclude = ["node_modules/**", ".next/**", "e2e/**", ".data/**"];
// A fixed secret for tests only; deployments set their own (npm start generates one into .env.local).
const env = { CHARTKEY_SECRET: "test-only-secret-0123456789abcdefghijklmnopqrstuvwxyz", NODE_ENV: "test" as const };

// Integration files that must load before anything else in their process: OpenTelemetry's instrumentation patches
// `pg` and `http` as they are first required, which a worker that ran another file has long done.
const OWN_PROCESS = ["lib/tracing/tracing.int.test.ts", "lib/conformance/phase-span.int.test.ts"];

/**
 * An integration project (`*.int.test.ts`): one PostgreSQL server per run (embedded, or TEST_DATABASE_SERVER_URL's)
 * and a fresh database per test file (test/global-setup.ts, test/database-per-file.ts).
 */
function integrationProject(test: { name: string; include: string[]; exclude: string[]; isolate: boolean }) {
  return {
    resolve: { alias },
    test: {
      ...test,
      environment: "node" as const,
      env,
      globalSetup: ["test/global-setup.ts"],
      setupFiles: ["test/database-per-file.ts"],
      // A guard against a hang, not a speed check: the production build and CI's production install check run
      // beside this project (scripts/test.sh, .ci/run), and a 13 s test has taken 30 s on a loaded 2-core machine.
      testTimeout: 60_000,
      hookTimeout: 120_000,
      // In CI, beside the browser tests on 2 cores, a test that failed once runs once more (as Playwright's do): two
      // whole runs each met one timing failure, a different one each time (both fixed since). A test that fails
      // twice fails the run.
      retry: process.env.CI ? 1 : 0,
    },
  };
}

// Three projects: `unit` runs pure tests with no database; `integration` and `integration-own-process` run the
// `*.int.test.ts` files against a real PostgreSQL, the latter each file in a process of its own.
export default defineConfig({
  resolve: { alias },
  test: {
    // Two files at a time even on a 2-core machine (vitest's default there is one): an integration file spends much
    // of its time waiting on PostgreSQL, HTTP and child processes, which leaves a core idle when files run one by one.
    maxWorkers: 2,
    // Longest files first, also on a clean clone with no timings cached (test/longest-first-sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["**/*.test.ts"],
          exclude: [...exclude, "**/*.int.test.ts"],
          environment: "node",
          env,
          // Pure tests share their worker's modules: re-importing the schemas, fixtures and FHIR validators for each of
          // a hundred files took 94 of the project's 137 s. A test that changes the environment, a global or a timer
          // restores it in afterEach (vi.stubEnv / vi.unstubAllEnvs), so files do not depend on their order.
          isolate: false,
          // Compiling the FHIR R4 schema's validators takes seconds on a loaded 2-core machine.
          testTimeout: 30_000,
          // In CI, as in the integration projects: a test that fails once beside the browser tests runs once more.
          retry: process.env.CI ? 1 : 0,
        },
      },
      integrationProject({
        name: "integration",
        include: ["**/*.int.test.ts"],
        exclude: [...exclude, ...OWN_PROCESS],
        // Files share their worker's modules, as the unit project's do: importing the platform afresh for each file
        // took a quarter of the project's worker time. Each file still gets its own database, and the environment
        // and process state its worker started with (test/database-per-file.ts, test/worker-state.ts).
        // CHARTKEY_TEST_ISOLATE=1 runs each file in a process of its own, to tell an order dependence from a bug.
        isolate: process.env.CHARTKEY_TEST_ISOLATE === "1",
      }),
      integrationProject({ name: "integration-own-process", include: OWN_PROCESS, exclude, isolate: true }),
    ],
  },
});
