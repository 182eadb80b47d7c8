import { z } from "zod";

export type JsonSchema = { [keyword: string]: unknown };

const LOCAL_DEFS = "#/$defs/";
const COMPONENT_SCHEMAS = "#/components/schemas/";

/**
 * Converts zod schemas to OpenAPI 3.1 schema objects (JSON Schema 2020-12) and collects every schema that carries
 * a `.meta({ id })` as a shared component, so a record shape used by many operations is written once and
 * referenced by `$ref`.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: "input" | "output" = "output"): JsonSchema {
    const { $defs, ...root } = z.toJSONSchema(schema, { io, unrepresentable: "throw" }) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    // The dialect is the document's (OpenAPI 3.1 schemas are JSON Schema 2020-12), not each schema's.
    delete root.$schema;
    for (const [id, definition] of Object.entries($defs ?? {})) this.register(id, retarget(definition) as JsonSchema);
    return retarget(root) as JsonSchema;
  }

  private register(id: string, definition: JsonSchema): void {
    const existing = this.schemas[id];
    if (existing && JSON.stringify(existing) !== JSON.stringify(definition)) {
      // Two different shapes under one id would make every $ref to it ambiguous.
      throw new Error(`OpenAPI component ${id} is defined twice with different shapes`);
    }
    this.schemas[id] = definition;
  }
}

/** Points zod's local `#/$defs/X` references at the document's `#/components/schemas/X`. */
function retarget(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(retarget);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === "$ref" && typeof inner === "string" && inner.startsWith(LOCAL_DEFS)
        ? COMPONENT_SCHEMAS + inner.slice(LOCAL_DEFS.length)
        : retarget(inner),
    ]),
  );
}
