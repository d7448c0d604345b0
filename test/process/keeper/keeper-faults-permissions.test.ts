/**
 * The keeper's folder is private, through the compiled binary: `run/` 0700, the socket and
 * keeper.json 0600, all the user's. A `run/` or keeper.json someone else owns or can read is refused:
 * the command runs cold (same answer) with one warning naming the path, and no keeper starts there;
 * a `run/` of the user's own that is merely too open is tightened, as the credentials store does.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { keeperProcessesOf, pathsOf, waitForKeeper } from "../../helpers/keeper-home.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { callEcho, echoConfig, newHome, serverPids, useKeeperFaultHarness } from "../../helpers/keeper-fault-harness.ts";

useKeeperFaultHarness();

const NOBODY = 65534;
/** Above any pid_max: a keeper.json naming it names no process. */
const NO_SUCH_PID = 2 ** 22 + 1;
const uid = process.getuid!();
const mode = (path: string) => lstatSync(path).mode & 0o777;

test("run/ is 0700, the socket and keeper.json 0600, all owned by the user", async () => {
  const home = newHome();
  const { config } = echoConfig();
  expect((await callEcho(home, config)).stdout).toBe("hi\n");
  await waitForKeeper(home);
  const paths = pathsOf(home);
  expect([mode(paths.folder), mode(paths.socket), mode(paths.info)]).toEqual([0o700, 0o600, 0o600]);
  expect([paths.folder, paths.socket, paths.info].map((p) => lstatSync(p).uid)).toEqual([uid, uid, uid]);
  expect(lstatSync(paths.socket).isSocket()).toBe(true);
});

test("a run/ of the user's own that others can write is tightened to 0700, and the keeper starts", async () => {
  const home = newHome();
  mkdirSync(pathsOf(home).folder, { mode: 0o700 });
  chmodSync(pathsOf(home).folder, 0o777);
  const { config } = echoConfig();
  const result = await callEcho(home, config);
  expect([result.exitCode, result.stdout]).toEqual([0, "hi\n"]);
  await waitForKeeper(home);
  expect(mode(pathsOf(home).folder)).toBe(0o700);
});

describe("refused: the call runs cold with one warning naming the path, and no keeper starts", () => {
  const cases: [string, (home: string) => string][] = [
    [
      "a run/ owned by someone else",
      (home) => {
        mkdirSync(pathsOf(home).folder, { mode: 0o700 });
        chownSync(pathsOf(home).folder, NOBODY, NOBODY);
        return pathsOf(home).folder;
      },
    ],
    [
      "a run/ that is a symlink to a folder owned by someone else",
      (home) => {
        const elsewhere = `${home}/elsewhere`;
        mkdirSync(elsewhere, { mode: 0o700 });
        chownSync(elsewhere, NOBODY, NOBODY);
        symlinkSync(elsewhere, pathsOf(home).folder);
        return pathsOf(home).folder;
      },
    ],
    [
      "a keeper.json others can read (its token is the key to the socket)",
      (home) => {
        mkdirSync(pathsOf(home).folder, { mode: 0o700 });
        writeFileSync(pathsOf(home).info, JSON.stringify({ pid: NO_SUCH_PID, version: "0", protocol: 1, token: "ab".repeat(32), startedAt: 0 }), { mode: 0o644 });
        return pathsOf(home).info;
      },
    ],
    [
      "a keeper.json owned by someone else",
      (home) => {
        mkdirSync(pathsOf(home).folder, { mode: 0o700 });
        writeFileSync(pathsOf(home).info, JSON.stringify({ pid: NO_SUCH_PID, version: "0", protocol: 1, token: "ab".repeat(32), startedAt: 0 }), { mode: 0o600 });
        chownSync(pathsOf(home).info, NOBODY, NOBODY);
        return pathsOf(home).info;
      },
    ],
  ];
  for (const [what, prepare] of cases) {
    test(what, async () => {
      const home = newHome();
      const path = prepare(home);
      const before = lstatSync(path);
      const { config, marker } = echoConfig();
      const result = await callEcho(home, config);
      expect([result.exitCode, result.stdout]).toEqual([0, "hi\n"]);
      const lines = result.stderr.split("\n").filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(path);
      expect(keeperProcessesOf(home)).toEqual([]);
      expect(existsSync(pathsOf(home).socket)).toBe(false);
      // Cold: the command closed its own server.
      await waitFor(() => serverPids(marker).length === 0, "the command's own server to be closed");
      // Left as it was: refused, not "repaired" into something that trusts it.
      const after = lstatSync(path);
      expect([after.uid, after.mode]).toEqual([before.uid, before.mode]);
    });
  }
});
