// The one home of process-wide state. The platform's modules are loaded more than once in one process: the platform
// server's graph (tsx) and the bundles Next.js built for pages, server actions and route files each evaluate their
// own copy of a module, so a module-level variable would exist once per copy (two rate-limit caches, two queue
// clients, two key caches). A slot here is created on first use and kept on globalThis under one well-known symbol,
// so every copy of every module reaches the same instance by construction. The linter forbids module-level state
// anywhere else (eslint.config.mjs, "processWideState").
const REGISTRY = Symbol.for("chartkey.process-state");
const CREATORS = Symbol.for("chartkey.process-state.creators");

type Holder = typeof globalThis & { [REGISTRY]?: Map<string, unknown>; [CREATORS]?: Map<string, () => unknown> };

function registry(): Map<string, unknown> {
  const holder = globalThis as Holder;
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

function creators(): Map<string, () => unknown> {
  const holder = globalThis as Holder;
  holder[CREATORS] ??= new Map();
  return holder[CREATORS];
}

/**
 * The process's one instance of the state named `name` (by convention `<domain>.<what>`), made by `create` the first
 * time any copy of any module asks for it.
 */
export function processState<T>(name: string, create: () => T): T {
  const slots = registry();
  if (!slots.has(name)) {
    slots.set(name, create());
    creators().set(name, create);
  }
  return slots.get(name) as T;
}

/** The names of the slots made so far, for the test proving each is one instance. */
export function processStateNames(): string[] {
  return [...registry().keys()];
}

/**
 * Puts the slots `reset` selects back to what their creator makes, in place where the slot is a Map, a Set, an array
 * or a plain object (modules keep a reference to those), else by replacing it: for test runners that run several
 * files in one process, each with its own database. The caller closes what a slot holds open (pools, clients) first.
 */
export function resetProcessState(reset: (name: string) => boolean): void {
  const slots = registry();
  for (const [name, value] of slots) {
    const create = creators().get(name);
    if (!create || !reset(name)) continue;
    const fresh = create();
    if (value instanceof Map && fresh instanceof Map) {
      value.clear();
      for (const [key, entry] of fresh) value.set(key, entry);
    } else if (value instanceof Set && fresh instanceof Set) {
      value.clear();
      for (const entry of fresh) value.add(entry);
    } else if (Array.isArray(value) && Array.isArray(fresh)) {
      value.splice(0, value.length, ...fresh);
    } else if (isPlainObject(value) && isPlainObject(fresh)) {
      for (const key of Object.keys(value)) delete value[key];
      Object.assign(value, fresh);
    } else {
      slots.set(name, fresh);
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
