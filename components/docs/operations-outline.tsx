import { getPlatformOpenApi, type OpenApiMethod, type OpenApiOperation } from "@/lib/openapi";

/** Scalar's anchor for an operation of the document it shows under `slug` (its sidebar links use the same). */
export function operationAnchor(slug: string, tag: string, method: string, path: string): string {
  return `${slug}/tag/${tag.toLowerCase().replace(/\s+/g, "-")}/${method.toUpperCase()}${path}`;
}

const METHOD_TONE: Record<string, string> = {
  GET: "text-sky-800",
  POST: "text-emerald-800",
  PUT: "text-amber-900",
  PATCH: "text-amber-900",
  DELETE: "text-red-800",
};

/**
 * Every operation of the keyed API grouped by tag, rendered on the server: readable and linked at the page's first
 * paint, while Scalar (a large bundle) loads. Each link is the operation's anchor in Scalar's reference, so a click
 * before Scalar is ready lands on the operation once it is. Hidden once Scalar's own navigation has rendered
 * (scalar-theme.css), where it would repeat it.
 */
export function OperationsOutline() {
  const document = getPlatformOpenApi();
  const groups = document.tags.map((tag) => ({
    tag: tag.name,
    operations: Object.entries(document.paths).flatMap(([path, item]) =>
      (Object.entries(item) as [OpenApiMethod, OpenApiOperation][])
        .filter(([, operation]) => operation.tags[0] === tag.name)
        .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    ),
  }));
  return (
    <nav aria-labelledby="operations-outline" className="docs-outline mx-auto max-w-5xl px-4 py-6 sm:px-6">
      <h2 id="operations-outline" className="text-lg font-semibold text-slate-900">
        Operations <span className="text-sm font-normal text-slate-600">(Chartkey API, /api/v1)</span>
      </h2>
      <div className="mt-3 grid gap-x-8 gap-y-5 sm:grid-cols-2 lg:grid-cols-3">
        {groups
          .filter((group) => group.operations.length > 0)
          .map((group) => (
            <section key={group.tag} aria-labelledby={`outline-${group.tag}`}>
              <h3 id={`outline-${group.tag}`} className="text-sm font-semibold uppercase tracking-wide text-slate-700">
                {group.tag}
              </h3>
              <ul className="mt-1 space-y-1 text-sm">
                {group.operations.map(({ method, path, operation }) => (
                  <li key={operation.operationId}>
                    <a className="group block min-w-0 rounded py-0.5 text-teal-900 hover:bg-teal-50" href={`#${operationAnchor("platform", group.tag, method, path)}`}>
                      <span className={`mr-1.5 inline-block w-12 font-mono text-xs font-semibold ${METHOD_TONE[method] ?? "text-slate-700"}`}>{method}</span>
                      <span className="underline-offset-2 group-hover:underline">{operation.summary}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ))}
      </div>
    </nav>
  );
}
