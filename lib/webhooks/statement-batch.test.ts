import { describe, expect, it } from "vitest";
import { statementBatch } from "./statement-batch";

describe("statementBatch", () => {
  it("runs the calls of one event-loop turn as one statement and answers each caller in order", async () => {
    const runs: number[][] = [];
    const double = statementBatch(
      async (inputs: number[]) => {
        runs.push(inputs);
        return inputs.map((input) => input * 2);
      },
      async (input: number) => input * 2,
    );
    expect(await Promise.all([1, 2, 3].map(double))).toEqual([2, 4, 6]);
    expect(runs).toEqual([[1, 2, 3]]);
    expect(await double(5)).toBe(10);
    expect(runs).toHaveLength(1);
  });

  it("splits at the largest size", async () => {
    const sizes: number[] = [];
    const echo = statementBatch(
      async (inputs: number[]) => {
        sizes.push(inputs.length);
        return inputs;
      },
      async (input: number) => input,
      4,
    );
    expect(await Promise.all(Array.from({ length: 10 }, (_, index) => echo(index)))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sizes).toEqual([4, 4, 2]);
  });

  it("with a window, gathers the calls made over that time into one statement", async () => {
    const runs: number[][] = [];
    const echo = statementBatch(
      async (inputs: number[]) => {
        runs.push(inputs);
        return inputs;
      },
      async (input: number) => input,
      500,
      30,
    );
    const first = echo(1);
    await new Promise((resolve) => setTimeout(resolve, 5)); // later turns, inside the window
    const second = echo(2);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(runs).toEqual([[1, 2]]);
  });

  it("when the gathered statement fails, runs each alone so only the bad input's caller fails", async () => {
    const checked = statementBatch(
      async () => {
        throw new Error("one bad row fails the statement");
      },
      async (input: number) => {
        if (input < 0) throw new Error(`bad ${input}`);
        return input;
      },
    );
    const outcomes = await Promise.allSettled([1, -1, 2].map(checked));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error("bad -1"));
  });
});
