/** Path prefix of the keyless demo API. Links in demo bodies are absolute paths, so they hold behind any host. */
export const DEMO_BASE = "/demo/v1";

export function demoPath(...segments: string[]): string {
  return [DEMO_BASE, ...segments.map(encodeURIComponent)].join("/");
}
