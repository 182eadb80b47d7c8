import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Seconds each of the slowest test files took in a whole run on 2 cores (the "✓ <project> <file> ... ms" lines of
 * `npx vitest run`). Refresh it when a file's time changes much; a file not listed counts as quick.
 */
export const KNOWN_SECONDS: Readonly<Record<string, number>> = {
  "test/conformance-matrix.int.test.ts": 130,
  "test/faults/process-kill.int.test.ts": 65,
  "test/conformance-reference.int.test.ts": 39,
  "test/routes/tefca.int.test.ts": 31,
  "test/routes/sandbox-events.int.test.ts": 31,
  "test/routes/mcp.int.test.ts": 28,
  "scripts/bench/load.test.ts": 28,
  "test/dev-server.int.test.ts": 27,
  "lib/connect/live-connect.int.test.ts": 25,
  "test/routes/openapi-fuzz.int.test.ts": 20,
  "test/faults/database-freeze.int.test.ts": 20,
  "test/faults/database-outage.int.test.ts": 19,
  "lib/imports/continuous-sync.int.test.ts": 18,
  "lib/db/resolve-database.int.test.ts": 18,
  "lib/webhooks/delivery.int.test.ts": 18,
  "lib/db/migrate.int.test.ts": 17,
  "test/routes/sandbox-simulate.int.test.ts": 16,
  "test/scale-out.int.test.ts": 16,
  "test/routes/demo-fhir.test.ts": 16,
};

/**
 * Orders each project's files longest first, so that the longest file (the conformance matrix, two minutes) starts
 * at once beside the others rather than last with one worker idle. A file's time is its last run's, from Vitest's
 * cache, else KNOWN_SECONDS (a clean clone has no cache; by default Vitest would then run larger files first, and the
 * matrix is a short file). Projects keep the order Vitest gives them.
 */
export function longestFirst<T>(files: readonly T[], project: (file: T) => string, seconds: (file: T) => number): T[] {
  const projectRank = new Map<string, number>();
  for (const file of files) if (!projectRank.has(project(file))) projectRank.set(project(file), projectRank.size);
  return files
    .map((file, index) => ({ file, index, rank: projectRank.get(project(file))!, seconds: seconds(file) }))
    .sort((a, b) => a.rank - b.rank || b.seconds - a.seconds || a.index - b.index)
    .map(({ file }) => file);
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const ordered = await super.sort(files);
    return longestFirst(
      ordered,
      (file) => file.project.name,
      (file) => {
        const relative = path.relative(root, file.moduleId).split(path.sep).join("/");
        const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${relative}`);
        return cached ? cached.duration / 1000 : (KNOWN_SECONDS[relative] ?? 0);
      },
    );
  }
}
