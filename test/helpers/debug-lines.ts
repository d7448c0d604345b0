import type { LogObject } from "consola";
import { log } from "../../src/log.ts";

/** The debug lines logged while `body` runs: debug is on for the time, and the lines caught instead of printed. */
export async function debugLines(body: () => void | Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const [level, reporters] = [log.level, [...log.options.reporters]];
  log.level = 4;
  log.setReporters([{ log: (entry: LogObject) => void (entry.type === "debug" && lines.push(entry.args.map(String).join(" "))) }]);
  try {
    await body();
  } finally {
    log.setReporters(reporters);
    log.level = level;
  }
  return lines;
}
