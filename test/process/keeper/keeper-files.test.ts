/**
 * What the keeper's files may make a command do to files and processes that are not this home's
 * keeper's, through the compiled binary: a `keeper.log` symlink planted while `run/` was open is not
 * followed, and a `keeper.json` naming another CAT_CODE_HOME's live keeper never gets it signalled.
 */
import { expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive, pathsOf, readKeeperInfo, waitForKeeper } from "../../helpers/keeper-home.ts";
import { tempDir } from "../../helpers/paths.ts";
import { callEcho, cat, echoConfig, newHome, startFakeKeeper, useKeeperFaultHarness } from "../../helpers/keeper-fault-harness.ts";

useKeeperFaultHarness();

const mode = (path: string) => lstatSync(path).mode & 0o777;

test("a keeper.log symlink left in a once-open run/: its target is untouched, the keeper logs to a file of its own, run/ is 0700 again", async () => {
  const home = newHome();
  const paths = pathsOf(home);
  mkdirSync(paths.folder, { mode: 0o700 });
  chmodSync(paths.folder, 0o777);
  const victim = join(tempDir(), "precious.txt");
  writeFileSync(victim, "precious\n");
  symlinkSync(victim, paths.log);
  const { config } = echoConfig();
  const result = await callEcho(home, config);
  expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, "hi\n", ""]);
  await waitForKeeper(home);
  expect(readFileSync(victim, "utf8")).toBe("precious\n");
  const log = lstatSync(paths.log);
  expect([log.isSymbolicLink(), log.isFile(), mode(paths.log)]).toEqual([false, true, 0o600]);
  expect(mode(paths.folder)).toBe(0o700);
});

/** Another home's live keeper, and this home with a socket that accepts and never answers and a keeper.json naming that keeper. */
async function plantedHome(config: string) {
  const other = newHome();
  expect((await callEcho(other, config)).stdout).toBe("hi\n");
  const theirs = await waitForKeeper(other, "the other home's keeper");
  const home = newHome();
  const fake = await startFakeKeeper(home, "--hang");
  writeFileSync(pathsOf(home).info, JSON.stringify({ ...readKeeperInfo(home)!, pid: theirs.pid }), { mode: 0o600 });
  return { other, theirs, home, fake };
}

test("a hung socket with a keeper.json naming another CAT_CODE_HOME's keeper: that keeper is never signalled, and this home gets its own", async () => {
  const { config } = echoConfig();
  const { other, theirs, home, fake } = await plantedHome(config);
  const result = await callEcho(home, config, "mine");
  expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, "mine\n", ""]);
  const mine = await waitForKeeper(home, "a keeper of this home in place of the hung socket");
  expect(mine.pid).not.toBe(theirs.pid);
  expect(mine.pid).not.toBe(fake.pid);
  expect(isAlive(theirs.pid)).toBe(true);
  // Still the other home's keeper, still serving it.
  expect((await callEcho(other, config, "still")).stdout).toBe("still\n");
  expect(readKeeperInfo(other)?.pid).toBe(theirs.pid);
});

test("mcp keeper status on that hung socket does not tell the user to kill the pid keeper.json names", async () => {
  const { config } = echoConfig();
  const { theirs, home } = await plantedHome(config);
  const status = await cat(home, ["mcp", "keeper", "status"]);
  expect(status.exitCode).not.toBe(0);
  expect(status.stderr).toContain(`pid ${theirs.pid} in ${pathsOf(home).info} is not this home's keeper (do not kill it); remove both files: rm `);
  expect(status.stderr).not.toContain(`kill ${theirs.pid}`);
  expect(isAlive(theirs.pid)).toBe(true);
});

test("mcp keeper status on this home's own keeper, hung (SIGSTOP): names its pid and how to end it", async () => {
  const home = newHome();
  const { config } = echoConfig();
  expect((await callEcho(home, config)).stdout).toBe("hi\n");
  const keeper = await waitForKeeper(home);
  process.kill(keeper.pid, "SIGSTOP");
  try {
    const status = await cat(home, ["mcp", "keeper", "status"]);
    expect(status.stderr).toBe(`error: the connection keeper: the keeper (pid ${keeper.pid}) did not answer within 2000 ms; if it hangs, end it with: kill ${keeper.pid}\n`);
  } finally {
    process.kill(keeper.pid, "SIGCONT");
  }
});
