import { expect, test } from "bun:test";
import { closeSync, linkSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { openKeeperLog } from "../../../src/keeper/keeper-folder.ts";
import { tempDir } from "../../helpers/paths.ts";

/** openKeeperLog: what may sit at `run/keeper.log` from a time the folder was open, and what the keeper then writes to. */
function setup() {
  const folder = join(tempDir(), "run");
  mkdirSync(folder, { mode: 0o700 });
  const victim = join(tempDir(), "precious.txt");
  writeFileSync(victim, "precious\n");
  return { log: join(folder, "keeper.log"), victim };
}

function writeAndClose(fd: number, text: string): void {
  writeSync(fd, text);
  closeSync(fd);
}

test.each([
  ["a symlink to another file", (log: string, victim: string) => symlinkSync(victim, log)],
  ["a second name (hard link) of another file", (log: string, victim: string) => linkSync(victim, log)],
])("%s: removed, its target untouched, and the log is a new file of mode 0600", (_, plant) => {
  const { log, victim } = setup();
  plant(log, victim);
  writeAndClose(openKeeperLog(log), "keeper\n");
  expect(readFileSync(victim, "utf8")).toBe("precious\n");
  expect(readFileSync(log, "utf8")).toBe("keeper\n");
  expect([lstatSync(log).isFile(), lstatSync(log).nlink, lstatSync(log).mode & 0o777]).toEqual([true, 1, 0o600]);
});

test("a FIFO (that would block the opening command for ever): replaced, no hang", () => {
  const { log } = setup();
  expect(Bun.spawnSync(["mkfifo", log]).exitCode).toBe(0);
  writeAndClose(openKeeperLog(log), "keeper\n");
  expect(lstatSync(log).isFile()).toBe(true);
});

test("the keeper's own log of a previous start: cut, and made 0600 if it was more open", () => {
  const { log } = setup();
  writeFileSync(log, "old lines\n".repeat(100), { mode: 0o644 });
  writeAndClose(openKeeperLog(log), "new\n");
  expect(readFileSync(log, "utf8")).toBe("new\n");
  expect(lstatSync(log).mode & 0o777).toBe(0o600);
});
