/** One benchmarked operation and the request paths the load rotates through. */
export type Endpoint = { id: EndpointId; label: string; paths: string[] };
export type EndpointId = "health" | "app" | "category" | "feed" | "snapshot";

export type EndpointData = { subjects: readonly string[]; feeds: readonly { subjectId: string; cursor: string }[] };

export const ENDPOINT_LABELS: Record<EndpointId, string> = {
  health: "GET /health (reference: no key, SELECT 1)",
  app: "GET /app",
  category: "GET /users/{subject}/records/labs?limit=50",
  feed: "GET /users/{subject}/records/labs/changes?cursor=…",
  snapshot: "GET /users/{subject}/records",
};

/**
 * The paths each endpoint is measured with: the category page and the snapshot of every subject and the change
 * feed of every feed subject (from its saved changeCursor), each list in a fixed shuffled order so consecutive
 * requests read different subjects.
 */
export function endpointPaths(data: EndpointData, ids: readonly EndpointId[]): Endpoint[] {
  const subjects = shuffled(data.subjects);
  const feeds = shuffled(data.feeds);
  const paths: Record<EndpointId, () => string[]> = {
    health: () => ["/api/v1/health"],
    app: () => ["/api/v1/app"],
    category: () => subjects.map((subject) => `/api/v1/users/${subject}/records/labs?limit=50`),
    feed: () => feeds.map(({ subjectId, cursor }) => `/api/v1/users/${subjectId}/records/labs/changes?cursor=${encodeURIComponent(cursor)}`),
    snapshot: () => subjects.map((subject) => `/api/v1/users/${subject}/records`),
  };
  return ids.map((id) => ({ id, label: ENDPOINT_LABELS[id], paths: paths[id]() }));
}

/**
 * A records read's floor: the least any server does to answer it from PostgreSQL (one statement reading the records
 * the answer holds, their stored text forwarded in one JSON array; no key, consent or cursor), served by the
 * baseline under /floor and measured as a pair against the platform's GET /app, beside the read's own target.
 */
export type FloorId = "category-floor" | "snapshot-floor";

export const FLOOR_LABELS: Record<FloorId, string> = {
  "category-floor": "Floor of the category page: its 50 records alone",
  "snapshot-floor": "Floor of the snapshot: its records alone",
};

/** The floor's paths, over the same subjects in the same order as the read it is the floor of. */
export function floorPaths(data: Pick<EndpointData, "subjects">, id: FloorId): { id: FloorId; label: string; paths: string[] } {
  const subjects = shuffled(data.subjects);
  const paths = id === "category-floor" ? subjects.map((subject) => `/floor/users/${subject}/records/labs?limit=50`) : subjects.map((subject) => `/floor/users/${subject}/records`);
  return { id, label: FLOOR_LABELS[id], paths };
}

/** A deterministic Fisher-Yates shuffle (a fixed-seed LCG), so every run reads subjects in the same order. */
export function shuffled<T>(items: readonly T[], seed = 20261123): T[] {
  const out = [...items];
  let state = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
