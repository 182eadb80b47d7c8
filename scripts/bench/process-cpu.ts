import { readdirSync, readFileSync } from "node:fs";

// Linux reports CPU times in clock ticks of 1/100 s (USER_HZ) on every architecture Node.js runs on.
const TICKS_PER_SECOND = 100;

type Stat = { pid: number; ppid: number; own: number; reaped: number };

function stats(): Stat[] {
  const found: Stat[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name (which may hold spaces and parentheses): state ppid ... utime(14) stime cutime cstime.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    found.push({ pid: Number(entry), ppid: Number(fields[1]), own: Number(fields[11]) + Number(fields[12]), reaped: Number(fields[13]) + Number(fields[14]) });
  }
  return found;
}

/**
 * CPU seconds used so far by process `root` and every process under it (PostgreSQL's postmaster and its backends),
 * including children that already exited and were reaped: the difference between two readings is the tree's CPU
 * time in between, whatever else ran on the machine.
 */
export function treeCpuSeconds(root: number): number {
  const all = stats();
  const children = new Map<number, Stat[]>();
  for (const stat of all) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  let ticks = 0;
  const pending = all.filter((stat) => stat.pid === root);
  for (let stat = pending.pop(); stat; stat = pending.pop()) {
    ticks += stat.own + stat.reaped;
    pending.push(...(children.get(stat.pid) ?? []));
  }
  return ticks / TICKS_PER_SECOND;
}

/** The postmaster's process id, from the first line of `postmaster.pid` in its data directory. */
export function postmasterPid(clusterDir: string): number {
  return Number(readFileSync(`${clusterDir}/postmaster.pid`, "utf8").split("\n")[0]);
}
