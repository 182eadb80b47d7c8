/**
 * A short, human summary of a browser's User-Agent ("Chrome on macOS") for the Security page's session list: enough
 * for a person to recognise their own devices, never the whole header (it is a fingerprint and can be very long).
 */
export function summarizeUserAgent(userAgent: string | null | undefined): string {
  const agent = (userAgent ?? "").slice(0, 512);
  if (!agent.trim()) return "Unknown device";
  const browser =
    /Edg(e|A|iOS)?\//.test(agent) ? "Edge"
    : /OPR\/|Opera/.test(agent) ? "Opera"
    : /Firefox\/|FxiOS\//.test(agent) ? "Firefox"
    : /HeadlessChrome\//.test(agent) ? "Headless Chrome"
    : /Chrome\/|CriOS\/|Chromium\//.test(agent) ? "Chrome"
    : /Safari\//.test(agent) && /Version\//.test(agent) ? "Safari"
    : /curl\//i.test(agent) ? "curl"
    : "Browser";
  const system =
    /iPhone|iPad|iPod/.test(agent) ? "iOS"
    : /Android/.test(agent) ? "Android"
    : /Windows/.test(agent) ? "Windows"
    : /Mac OS X|Macintosh/.test(agent) ? "macOS"
    : /CrOS/.test(agent) ? "ChromeOS"
    : /Linux/.test(agent) ? "Linux"
    : null;
  return system ? `${browser} on ${system}` : browser;
}
