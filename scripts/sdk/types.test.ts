import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { sdkGeneratedFiles } from "./types";

describe("the SDK's generated sources", () => {
  it("are what the current API declarations generate (run `npm run sdk:types` after changing the API)", async () => {
    const files = await sdkGeneratedFiles();
    expect(Object.keys(files)).toHaveLength(2);
    for (const [file, expected] of Object.entries(files)) expect(await readFile(file, "utf8"), file).toBe(expected);
  });
});
