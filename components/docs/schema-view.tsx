import type { JsonSchema } from "@/lib/openapi";

const COMPONENT_PREFIX = "#/components/schemas/";

/** Anchor of a shared schema on the reference page; document-scoped because both documents may name one alike. */
export function schemaAnchor(documentKey: string, name: string): string {
  return `${documentKey}-schema-${name}`;
}

function asSchema(value: unknown): JsonSchema | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonSchema) : null;
}

function schemaList(value: unknown): JsonSchema[] {
  return Array.isArray(value) ? value.map(asSchema).filter((item): item is JsonSchema => item !== null) : [];
}

export function refName(schema: JsonSchema): string | null {
  return typeof schema.$ref === "string" && schema.$ref.startsWith(COMPONENT_PREFIX) ? schema.$ref.slice(COMPONENT_PREFIX.length) : null;
}

function literal(value: unknown): string {
  return JSON.stringify(value);
}

/** A one-line type summary: `string | null`, `array of LabRecord`, `"complete" | "partial"`. */
export function TypeLabel({ schema, documentKey }: { schema: JsonSchema; documentKey: string }) {
  const ref = refName(schema);
  if (ref) {
    return (
      <a className="font-mono text-teal-700 underline decoration-dotted" href={`#${schemaAnchor(documentKey, ref)}`}>
        {ref}
      </a>
    );
  }
  if ("const" in schema) return <code className="text-amber-700">{literal(schema.const)}</code>;
  if (Array.isArray(schema.enum)) return <code className="text-amber-700">{schema.enum.map(literal).join(" | ")}</code>;
  const variants = [...schemaList(schema.anyOf), ...schemaList(schema.oneOf)];
  if (variants.length > 0) {
    return (
      <span>
        {variants.map((variant, index) => (
          <span key={index}>
            {index > 0 && <span className="text-slate-400"> | </span>}
            <TypeLabel schema={variant} documentKey={documentKey} />
          </span>
        ))}
      </span>
    );
  }
  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === "string" ? [schema.type] : [];
  const items = asSchema(schema.items);
  if (types.includes("array") && items) {
    return (
      <span>
        <span className="font-mono text-slate-600">array of </span>
        <TypeLabel schema={items} documentKey={documentKey} />
        {types.includes("null") && <span className="font-mono text-slate-600"> | null</span>}
      </span>
    );
  }
  const label = types.length > 0 ? types.join(" | ") : "any";
  const pattern = typeof schema.pattern === "string" ? ` matching ${schema.pattern}` : "";
  return <span className="font-mono text-slate-600">{label + pattern}</span>;
}

function nestedObject(schema: JsonSchema): JsonSchema | null {
  if (asSchema(schema.properties)) return schema;
  const items = asSchema(schema.items);
  if (items && asSchema(items.properties)) return items;
  const additional = asSchema(schema.additionalProperties);
  if (additional && asSchema(additional.properties)) return additional;
  return null;
}

/**
 * A schema as a field list: each property with its type, whether it is required and its description; inline
 * objects nest below their property, shared schemas link to their definition.
 */
export function SchemaView({ schema, documentKey }: { schema: JsonSchema; documentKey: string }) {
  const properties = asSchema(schema.properties);
  const variants = [...schemaList(schema.anyOf), ...schemaList(schema.oneOf)];
  if (!properties && variants.some((variant) => asSchema(variant.properties))) {
    return (
      <div className="space-y-2">
        <p className="text-sm text-slate-600">One of:</p>
        {variants.map((variant, index) => (
          <div key={index} className="border-l-2 border-slate-200 pl-3">
            <SchemaView schema={variant} documentKey={documentKey} />
          </div>
        ))}
      </div>
    );
  }
  if (!properties) {
    return (
      <p className="text-sm">
        <TypeLabel schema={schema} documentKey={documentKey} />
        {typeof schema.description === "string" && <span className="ml-2 text-slate-600">{schema.description}</span>}
      </p>
    );
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {Object.entries(properties).map(([name, value]) => {
        const property = asSchema(value) ?? {};
        const nested = nestedObject(property);
        return (
          <li key={name} className="py-2">
            <div className="flex flex-wrap items-baseline gap-x-2">
              <code className="font-semibold text-slate-900">{name}</code>
              <TypeLabel schema={property} documentKey={documentKey} />
              {required.has(name) ? (
                <span className="text-xs font-medium text-rose-700">required</span>
              ) : (
                <span className="text-xs text-slate-400">optional</span>
              )}
            </div>
            {typeof property.description === "string" && <p className="mt-0.5 text-slate-600">{property.description}</p>}
            {nested && (
              <div className="mt-2 border-l-2 border-slate-200 pl-3">
                <SchemaView schema={nested} documentKey={documentKey} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A request or response body: a shared schema is named (linking to its definition) and its fields are listed right
 * here, so readers need not jump to the schema list for the top level.
 */
export function BodySchema({ schema, documentKey, schemas }: { schema: JsonSchema; documentKey: string; schemas: Record<string, JsonSchema> }) {
  const name = refName(schema);
  const target = name ? schemas[name] : undefined;
  if (!name || !target) return <SchemaView schema={schema} documentKey={documentKey} />;
  return (
    <div>
      <p className="text-sm">
        <TypeLabel schema={schema} documentKey={documentKey} />
        {typeof target.description === "string" && <span className="ml-2 text-slate-600">{target.description}</span>}
      </p>
      <div className="mt-1">
        <SchemaView schema={target} documentKey={documentKey} />
      </div>
    </div>
  );
}
