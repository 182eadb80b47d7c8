import fs from "node:fs";
import path from "node:path";

/** What a suite does when a data folder it reads lives beside the checkout (`../shared/...`) rather than in it. */
export type SharedFolderVerdict = { action: "run" } | { action: "fail" | "skip"; message: string };

/**
 * A missing folder fails the suite in CI, whose job is to run everything and which must provide it, and skips it
 * with a visible message elsewhere, so that a plain clone without `../shared` still passes.
 */
export function sharedFolderVerdict(relativePath: string, exists: boolean, ci: string | undefined): SharedFolderVerdict {
  if (exists) return { action: "run" };
  // CI=false or CI=0 is how people switch the flag off without unsetting it.
  const inCi = ci !== undefined && !["", "0", "false"].includes(ci.trim().toLowerCase());
  return inCi
    ? { action: "fail", message: `${relativePath} is missing; CI must provide it beside the checkout` }
    : { action: "skip", message: `Skipping: ${relativePath} is missing (it lives beside the checkout; CI fails without it)` };
}

/** The verdict for a folder given relative to the working directory, from the file system and `CI`. */
export function checkSharedFolder(relativePath: string): { absolutePath: string; verdict: SharedFolderVerdict } {
  const absolutePath = path.resolve(process.cwd(), relativePath);
  return { absolutePath, verdict: sharedFolderVerdict(relativePath, fs.existsSync(absolutePath), process.env.CI) };
}
