import { describe, expect, it } from "vitest";
import { JOBS, LIFECYCLE_CYCLES } from "@/scripts/platform-jobs";
import { assertDistinctQueues, defineJob } from "./registry";

const noop = async () => {};

describe("the job registry", () => {
  it("refuses two jobs on one queue, which would each receive the other's jobs", () => {
    const first = defineJob({ queue: "imports", policy: {}, handler: noop });
    const second = defineJob({ queue: "webhooks", policy: {}, handler: noop });
    expect(() => assertDistinctQueues([first, second])).not.toThrow();
    expect(() => assertDistinctQueues([first, second, { ...first, handler: noop }])).toThrow(
      'Two registered jobs use the queue "imports"',
    );
  });

  it("registers distinct queues and distinctly named lifecycle cycles", () => {
    expect(() => assertDistinctQueues(JOBS)).not.toThrow();
    const names = LIFECYCLE_CYCLES.map((cycle) => cycle.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
