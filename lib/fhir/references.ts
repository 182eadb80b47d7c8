/** Whether any `reference` anywhere inside a resource (at any depth) satisfies `isTarget`. */
export function referencesAny(value: unknown, isTarget: (reference: string) => boolean): boolean {
  if (Array.isArray(value)) return value.some((item) => referencesAny(item, isTarget));
  if (value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([key, inner]) =>
    key === "reference" && typeof inner === "string" ? isTarget(inner) : referencesAny(inner, isTarget),
  );
}
