/**
 * The demo's notion of "now". Scenario behaviours that depend on time (the rate-limited scenario's 2-second slots)
 * read it through here so tests can pin the time instead of sleeping.
 */
export type Clock = () => number;

const systemClock: Clock = () => Date.now();
let current: Clock = systemClock;

export function demoNow(): number {
  return current();
}

/** Replaces the demo clock; returns a function that restores the previous one. */
export function setDemoClock(clock: Clock): () => void {
  const previous = current;
  current = clock;
  return () => {
    current = previous;
  };
}
