/** A request header as one string: Node joins repeated headers with ", ", but the type still allows an array. */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}
