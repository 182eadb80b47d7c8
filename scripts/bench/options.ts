/** What one `npm run bench` measures and at what size; every field has a flag and an environment variable. */
export type BenchOptions = {
  /** Subjects of the large dataset (BENCH_SUBJECTS, --subjects). */
  subjects: number;
  /** Records per subject (BENCH_RECORDS_PER_SUBJECT, --records-per-subject). */
  recordsPerSubject: number;
  /** Records in total of the small dataset the category page is rerun on (BENCH_SMALL_RECORDS, --small-records). */
  smallRecords: number;
  /** Subjects whose change feed is read from a saved changeCursor, at most (BENCH_FEED_SUBJECTS, --feed-subjects). */
  feedSubjects: number;
  /** Batches of subjects written at once while seeding (BENCH_SEED_CONCURRENCY, --seed-concurrency). */
  seedConcurrency: number;
  /** autocannon connections (BENCH_CONNECTIONS, --connections). */
  connections: number;
  /** Seconds measured per endpoint and server (BENCH_DURATION, --duration). */
  duration: number;
  /** Seconds of discarded load before each measurement (BENCH_WARMUP, --warmup). */
  warmup: number;
  /** Where results.md, results.svg and results.json go (BENCH_OUT, --out). */
  out: string;
  /** Resources of the long-history sources imported whole, one import per size (BENCH_IMPORT_SIZES, --import-sizes). */
  importSizes: number[];
  /** Deliveries drained per endpoint count by the webhook fan-out (BENCH_WEBHOOK_EVENTS, --webhook-events). */
  webhookEvents: number;
  /** Whether this is `--quick` (BENCH_QUICK=1): every measurement at a small size, to check a change. */
  quick: boolean;
  /** The parts measured (BENCH_ONLY, --only pages,imports): all of them unless named. */
  parts: BenchPart[];
  /**
   * The bench's PostgreSQL cache (BENCH_POSTGRES_CACHE, --postgres-cache): a size such as 3GB, in huge pages the
   * bench reserves for its server when it can (postgres-cache.ts), or `default` for PostgreSQL's own 128 MB.
   */
  postgresCache: string;
};

/**
 * The bench's parts: the keyed read endpoints (seeded datasets), whole-source imports, the webhook fan-out, and the
 * FHIR section (search and Bulk Data export on the seeded datasets; `--only fhir` runs it alone beside the seed).
 */
export const BENCH_PARTS = ["pages", "imports", "webhooks", "fhir"] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

export const DEFAULT_OPTIONS: BenchOptions = {
  subjects: 10_000,
  recordsPerSubject: 100,
  smallRecords: 10_000,
  feedSubjects: 1_000,
  seedConcurrency: 3,
  connections: 32,
  duration: 10,
  warmup: 3,
  out: "bench",
  importSizes: [10_000, 50_000],
  webhookEvents: 10_000,
  quick: false,
  parts: [...BENCH_PARTS],
  postgresCache: "3GB",
};

/**
 * `--quick`: the same measurements at a size that runs in under three minutes on a 2-core machine (once the
 * production build exists): 20,000 records, 2,000 for the small dataset, 2-second measurements, imports of 2,000
 * and 10,000 resources, 1,000 deliveries per endpoint count. Flags given beside it still win. Each side of a pair
 * is measured in two halves and autocannon ends a run at a whole second, so 2 seconds are two halves of 1 (3 were
 * two of 2, and pushed the run past three minutes once the targets' pairs were added). A quick run also measures
 * each pair's second halves without a rewarm and leaves out the profile pass (index.ts): with them it took 3.5-3.9
 * minutes; without, about 2.5.
 */
export const QUICK_OPTIONS: Partial<BenchOptions> = {
  subjects: 200,
  smallRecords: 2_000,
  feedSubjects: 50,
  duration: 2,
  warmup: 1,
  importSizes: [2_000, 10_000],
  webhookEvents: 1_000,
  quick: true,
};

const NUMERIC = ["subjects", "recordsPerSubject", "smallRecords", "feedSubjects", "seedConcurrency", "connections", "duration", "warmup", "webhookEvents"] as const;
const SWITCHES = ["quick"];

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const envName = (name: string) => `BENCH_${kebab(name).replace(/-/g, "_").toUpperCase()}`;

/**
 * The options of one run: defaults (the full size), then BENCH_* environment variables, then `--name value` or
 * `--name=value` flags. Sizes are whole numbers of at least 1; a typo is an error, not a silent default.
 */
export function parseOptions(argv: readonly string[], env: Record<string, string | undefined>): BenchOptions {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) throw new Error(`unexpected argument ${arg}`);
    const [name, inline] = arg.slice(2).split("=", 2) as [string, string | undefined];
    if (SWITCHES.includes(name)) {
      flags.set(name, inline ?? "1");
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    flags.set(name, value);
  }
  const known = new Set([...NUMERIC.map(kebab), "out", "import-sizes", "only", "postgres-cache", ...SWITCHES]);
  for (const name of flags.keys()) if (!known.has(name)) throw new Error(`unknown option --${name}`);
  const on = (value: string | undefined) => value !== undefined && value !== "" && value !== "0" && value !== "false";
  const quick = on(flags.get("quick") ?? env.BENCH_QUICK);
  const options: BenchOptions = { ...DEFAULT_OPTIONS, ...(quick ? QUICK_OPTIONS : {}) };

  const raw = (name: keyof BenchOptions) => flags.get(kebab(name)) ?? env[envName(name)];
  for (const name of NUMERIC) {
    const value = raw(name);
    if (value === undefined || value === "") continue;
    const number = Number(value.replace(/_/g, ""));
    if (!Number.isInteger(number) || number < 1) throw new Error(`${kebab(name)} must be a whole number of at least 1 (got ${value})`);
    options[name] = number;
  }
  options.out = raw("out") || options.out;
  options.postgresCache = raw("postgresCache") || options.postgresCache;
  if (options.postgresCache !== "default" && !/^\d+(MB|GB)$/i.test(options.postgresCache)) {
    throw new Error(`postgres-cache must be a size such as 512MB or 3GB, or default (got ${options.postgresCache})`);
  }
  const sizes = raw("importSizes");
  if (sizes) {
    options.importSizes = String(sizes).split(",").map((size) => Number(size.replace(/_/g, "")));
    if (options.importSizes.some((size) => !Number.isInteger(size) || size < 100)) throw new Error(`import-sizes must be whole numbers of at least 100, comma-separated (got ${sizes})`);
  }
  const only = flags.get("only") ?? env.BENCH_ONLY;
  if (only) {
    const parts = String(only).split(",").map((part) => part.trim());
    const unknown = parts.filter((part) => !(BENCH_PARTS as readonly string[]).includes(part));
    if (unknown.length > 0 || parts.length === 0) throw new Error(`only must name parts among ${BENCH_PARTS.join(", ")}, comma-separated (got ${only})`);
    options.parts = BENCH_PARTS.filter((part) => parts.includes(part));
  }
  if (options.smallRecords < options.recordsPerSubject) throw new Error("small-records must be at least records-per-subject");
  return options;
}

/** Subjects of the small dataset: as many as hold `smallRecords` at the same records per subject. */
export function smallSubjects(options: BenchOptions): number {
  return Math.max(1, Math.round(options.smallRecords / options.recordsPerSubject));
}
