// The one home of process-wide state. The platform's modules are loaded more than once in one process: the platform
// server's graph (tsx) and the bundles Next.js built for pages, server actions and route files each evaluate their
// own copy of a module, so a module-level variable would exist once per copy (two rate-limit caches, two queue
// clients, two key caches). A slot here is created on first use and kept on globalThis under one well-known symbol,
// so every copy of every module reaches the same instance by construction. The linter forbids module-level state
// anywhere else (eslint.config.mjs, "processWideState").
const REGISTRY = Symbol.for("chartkey.process-state");

type Holder = typeof globalThis & { [REGISTRY]?: Map<string, unknown> };

function registry(): Map<string, unknown> {
  const holder = globalThis as Holder;
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/**
 * The process's one instance of the state named `name` (by convention `<domain>.<what>`), made by `create` the first
 * time any copy of any module asks for it.
 */
export function processState<T>(name: string, create: () => T): T {
  const slots = registry();
  if (!slots.has(name)) slots.set(name, create());
  return slots.get(name) as T;
}

/** The names of the slots made so far, for the test proving each is one instance. */
export function processStateNames(): string[] {
  return [...registry().keys()];
}
