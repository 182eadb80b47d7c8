import { processState } from "@/lib/process-state";

/**
 * The demo's notion of "now". Scenario behaviours that depend on time (the rate-limited scenario's 2-second slots)
 * read it through here so tests can pin the time instead of sleeping.
 */
export type Clock = () => number;

const systemClock: Clock = () => Date.now();
const clock = processState("demo.clock", () => ({ current: systemClock }));

export function demoNow(): number {
  return clock.current();
}

/** Replaces the demo clock; returns a function that restores the previous one. */
export function setDemoClock(replacement: Clock): () => void {
  const previous = clock.current;
  clock.current = replacement;
  return () => {
    clock.current = previous;
  };
}
