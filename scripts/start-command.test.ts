import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { START_NODE_ARGS } from "./start-command";

describe("npm start's command line", () => {
  it("is node with START_NODE_ARGS, which the bench and the browser tests start the platform with", () => {
    const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toBe(["node", ...START_NODE_ARGS].join(" "));
  });
});
