/**
 * Runs `task(0)` to `task(count - 1)` with at most `concurrency` running at once, in index order of starting.
 * The first failure stops new tasks from starting and is thrown once the running ones have settled.
 */
export async function runPool(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < count) {
      const index = next++;
      try {
        await task(index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  if (failure) throw failure.error;
}
