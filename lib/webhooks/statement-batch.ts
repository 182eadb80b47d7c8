/**
 * Gathers the calls made while the current event-loop turn runs (attempts started or given back together), or for `windowMs` after the first when given (outcomes that arrive over a few milliseconds), and runs
 * them as one statement: `run` gets every input and answers for each, in order. When the gathered statement fails,
 * each input runs alone through `runOne`, so one bad input fails only its own caller.
 */
export function statementBatch<In, Out>(run: (inputs: In[]) => Promise<Out[]>, runOne: (input: In) => Promise<Out>, maxSize = 500, windowMs = 0): (input: In) => Promise<Out> {
  let pending: { input: In; resolve: (out: Out) => void; reject: (error: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    if (batch.length === 1) {
      const [only] = batch;
      return runOne(only!.input).then(only!.resolve, only!.reject);
    }
    try {
      const outs = await run(batch.map((call) => call.input));
      batch.forEach((call, index) => call.resolve(outs[index]!));
    } catch {
      await Promise.all(batch.map((call) => runOne(call.input).then(call.resolve, call.reject)));
    }
  };
  return (input) =>
    new Promise<Out>((resolve, reject) => {
      pending.push({ input, resolve, reject });
      if (pending.length === 1) {
        if (windowMs > 0) timer = setTimeout(() => void flush(), windowMs);
        else setImmediate(() => void flush());
      }
      else if (pending.length >= maxSize) void flush();
    });
}
