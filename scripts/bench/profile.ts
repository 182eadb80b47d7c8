import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Where a server process's CPU went: self time per component, as a share of its busy time. */
export type ProfileSummary = { busyMs: number; components: { name: string; percent: number }[]; functions: { name: string; percent: number }[] };

type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
};

// Starting the server (loading and transpiling modules, Next.js preparing its routes) is not serving requests.
const STARTUP_FUNCTIONS = /^(?:prepareNextApp|loadComponentsImpl|unstable_preloadEntries)$/;
const STARTUP_URLS = /^node:internal\/modules\/|\/node_modules\/tsx\//;
const NOT_BUSY = new Set(["(idle)", "(program)"]);

/** A frame's component: the npm package, the project file, Node.js's own module, or the native function. */
function componentOf(frame: CpuProfile["nodes"][number]["callFrame"]): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith("(") ? frame.functionName : `native ${frame.functionName}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `npm ${pkg[1]}`;
  if (url.startsWith("node:")) return url.replace(/^node:(?:internal\/)?(?:deps\/)?/, "node:").split("/")[0]!;
  const project = /\/((?:lib|scripts|app)\/.*)$/.exec(url);
  return project ? project[1]! : url;
}

/**
 * The CPU profile `node --cpu-prof` wrote into `dir` for the platform's main thread, summarized: self time per
 * component and per function over the samples taken while serving (startup frames and idle left out).
 */
export function summarizeProfiles(dir: string, top = 15): ProfileSummary | undefined {
  let files: string[];
  try {
    // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: thread 0 serves the requests (others load modules for tsx).
    files = readdirSync(dir).filter((file) => /\.\d+\.0\.\d+\.cpuprofile$/.test(file));
  } catch {
    return undefined;
  }
  const components = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const startup = new Map<number, boolean>();
    const inStartup = (id: number): boolean => {
      const known = startup.get(id);
      if (known !== undefined) return known;
      const node = byId.get(id)!;
      const up = parent.get(id);
      const value = STARTUP_FUNCTIONS.test(node.callFrame.functionName) || STARTUP_URLS.test(node.callFrame.url) || (up !== undefined && inStartup(up));
      startup.set(id, value);
      return value;
    };
    profile.samples.forEach((id, index) => {
      const frame = byId.get(id)!.callFrame;
      if (NOT_BUSY.has(frame.functionName) || inStartup(id)) return;
      const micros = profile.timeDeltas[index] ?? 0;
      busy += micros;
      const component = componentOf(frame);
      components.set(component, (components.get(component) ?? 0) + micros);
      const name = `${frame.functionName || "(anonymous)"} (${component}${frame.url ? `:${frame.lineNumber + 1}` : ""})`;
      functions.set(name, (functions.get(name) ?? 0) + micros);
    });
  }
  if (busy === 0) return undefined;
  const ranked = (times: Map<string, number>) =>
    [...times]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, percent: (micros / busy) * 100 }));
  return { busyMs: busy / 1000, components: ranked(components), functions: ranked(functions) };
}
