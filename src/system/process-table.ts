import { readdirSync, readFileSync } from "node:fs";

/**
 * Linux's process table, read from /proc: who is whose child, in which group, and alive or not.
 * Other systems have no /proc; `readProcessTable` says so with `undefined` rather than an empty table.
 */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  /** Clock ticks after boot when it started: with the pid, names one process even after pid reuse. */
  startTime: string;
  /** False for a zombie (exited, not yet reaped) or a dead entry: signal 0 would still say yes. */
  alive: boolean;
}

/** One process, or undefined when it is gone (or there is no /proc). */
export function readProcess(pid: number): ProcessEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp ... starttime ...": comm may hold spaces and parentheses, so split after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [state, ppid, pgrp] = fields;
  return { pid, ppid: Number(ppid), pgrp: Number(pgrp), startTime: fields[19] ?? "", alive: state !== "Z" && state !== "X" };
}

/** Every process we can see, or undefined where there is no /proc. */
export function readProcessTable(): ProcessEntry[] | undefined {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const table: ProcessEntry[] = [];
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const entry = readProcess(Number(name)); // Undefined when it exited since the listing.
    if (entry) table.push(entry);
  }
  return table.length > 0 ? table : undefined;
}

/** The children of `pid`, their children, and so on, by parent pid: what `pid` started and still holds. */
export function descendantsOf<Entry extends Pick<ProcessEntry, "pid" | "ppid">>(table: Entry[], pid: number): Entry[] {
  const children = new Map<number, Entry[]>();
  for (const entry of table) {
    const siblings = children.get(entry.ppid);
    if (siblings) siblings.push(entry);
    else children.set(entry.ppid, [entry]);
  }
  const found: Entry[] = [];
  const queue = [pid];
  const seen = new Set(queue);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}
