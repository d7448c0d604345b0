import { readFileSync } from "node:fs";
import { descendantsOf, readProcessTable } from "./process-table.ts";

/** One process as far as its memory goes: who its parent is, and its resident set in bytes. */
interface ProcessMemory {
  pid: number;
  ppid: number;
  /** Known at once from `ps`; read from /proc for the trees asked about. */
  rssBytes?: number;
}

/**
 * The resident memory, in bytes, of each of `pids` with everything it started (a server run through
 * `npx` or a shell is a tree): from /proc on Linux, from `ps` elsewhere. A pid that is gone, or a
 * system where neither can be read, has no entry.
 */
export function treeResidentBytes(pids: number[]): Map<number, number> {
  const sizes = new Map<number, number>();
  if (pids.length === 0) return sizes;
  const table: ProcessMemory[] | undefined = readProcessTable() ?? psTable();
  if (!table) return sizes;
  for (const pid of pids) {
    const own = table.find((entry) => entry.pid === pid);
    if (!own) continue;
    // /proc's table has no sizes: read only those of the trees asked about.
    const tree = [own, ...descendantsOf(table, pid)].map((entry) => entry.rssBytes ?? procResidentBytes(entry.pid) ?? 0);
    sizes.set(pid, tree.reduce((sum, bytes) => sum + bytes, 0));
  }
  return sizes;
}

/** VmRSS of /proc/<pid>/status (in kB); none for a kernel thread or a process that exited since the listing. */
function procResidentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** `ps` where there is no /proc (macOS, the BSDs): rss in kB. */
function psTable(): ProcessMemory[] | undefined {
  try {
    const ps = Bun.spawnSync(["ps", "-A", "-o", "pid=,ppid=,rss="], { stdin: "ignore", stderr: "ignore" });
    if (ps.exitCode !== 0) return undefined;
    return ps.stdout
      .toString()
      .split("\n")
      .map((line) => line.trim().split(/\s+/).map(Number))
      .filter((fields) => fields.length === 3 && fields.every(Number.isFinite))
      .map(([pid, ppid, kb]) => ({ pid: pid!, ppid: ppid!, rssBytes: kb! * 1024 }));
  } catch {
    return undefined;
  }
}
