/**
 * Through the compiled binary and a real keeper: which commands share a warm server. Variables
 * shells and terminals change on their own (a `cd`, another tab) do not start another one; a
 * variable the server could use does; one entry holds at most MAX_CONNECTIONS_PER_ENTRY servers;
 * `mcp keeper status` shows what each holds in memory.
 */
import { expect, test } from "bun:test";
import { MAX_CONNECTIONS_PER_ENTRY } from "../../../src/keeper/warm-connections.ts";
import { tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { callEcho, cat, echoConfig, newHome, serverPids, useKeeperFaultHarness } from "../../helpers/keeper-fault-harness.ts";

useKeeperFaultHarness();

interface Held {
  calls: number;
  fingerprint: string;
  rssBytes?: number;
}

async function held(home: string): Promise<Held[]> {
  const { stdout } = await cat(home, ["mcp", "keeper", "status", "--json"]);
  return (JSON.parse(stdout) as { connections?: Held[] }).connections ?? [];
}

test("a cd round trip, another tab or a deeper shell keeps one server: OLDPWD, PWD, SHLVL, _, COLUMNS and a terminal's pane ids are not matched", async () => {
  const home = newHome();
  const { config, marker } = echoConfig();
  const folder = tempDir();
  const shells = [
    { OLDPWD: "/a", PWD: folder, SHLVL: "1", _: "/usr/bin/cat-code" },
    { OLDPWD: "/b", PWD: folder, SHLVL: "2", _: "/bin/cd" },
    { OLDPWD: folder, PWD: `${folder}/.`, COLUMNS: "80", LINES: "24", TERM_SESSION_ID: "w0t1p0:1", TMUX_PANE: "%3" },
    { OLDPWD: "/c", COLUMNS: "200", LINES: "50", TERM_SESSION_ID: "w0t2p0:2", TMUX_PANE: "%4", KITTY_WINDOW_ID: "7", PS1: "$ " },
  ];
  for (const [index, env] of shells.entries()) {
    expect((await callEcho(home, config, `call ${index}`, env, folder)).stdout).toBe(`call ${index}\n`);
  }
  expect((await held(home)).map((c) => c.calls)).toEqual([shells.length]);
  expect(serverPids(marker)).toHaveLength(1);
}, 60_000);

test("a changed variable the server could use gets a server of its own, and going back finds the first warm", async () => {
  const home = newHome();
  const { config, marker } = echoConfig();
  const folder = tempDir();
  for (const value of ["one", "two", "one"]) {
    expect((await callEcho(home, config, value, { ECHO_MODE: value, OLDPWD: `/from/${value}/${Math.random()}` }, folder)).stdout).toBe(`${value}\n`);
  }
  expect((await held(home)).map((c) => c.calls).sort()).toEqual([1, 2]);
  expect(serverPids(marker)).toHaveLength(2);
}, 60_000);

test(`one entry holds at most ${MAX_CONNECTIONS_PER_ENTRY} servers: the next environment closes the least recently used`, async () => {
  const home = newHome();
  const { config, marker } = echoConfig();
  const folder = tempDir();
  const prints: string[] = [];
  for (let n = 1; n <= MAX_CONNECTIONS_PER_ENTRY + 1; n++) {
    expect((await callEcho(home, config, `env ${n}`, { ECHO_MODE: String(n) }, folder)).exitCode).toBe(0);
    const fresh = (await held(home)).map((c) => c.fingerprint).filter((print) => !prints.includes(print));
    expect(fresh).toHaveLength(1);
    prints.push(fresh[0]!);
  }
  // The first (least recently used) is gone, its server ended; the four after it stay warm.
  expect((await held(home)).map((c) => c.fingerprint).sort()).toEqual(prints.slice(1).sort());
  await waitFor(() => serverPids(marker).length === MAX_CONNECTIONS_PER_ENTRY, "the evicted server to end");
  // Used again, the second is the most recent: the first, back, closes the third.
  expect((await callEcho(home, config, "again", { ECHO_MODE: "2" }, folder)).exitCode).toBe(0);
  expect((await callEcho(home, config, "back", { ECHO_MODE: "1" }, folder)).exitCode).toBe(0);
  const now = (await held(home)).map((c) => c.fingerprint);
  expect(now).toHaveLength(MAX_CONNECTIONS_PER_ENTRY);
  expect(now).toContain(prints[1]!);
  expect(now).not.toContain(prints[2]!);
}, 60_000);

test("mcp keeper status shows the resident memory of each server's process tree", async () => {
  const home = newHome();
  const { config } = echoConfig();
  expect((await callEcho(home, config)).exitCode).toBe(0);
  const [connection] = await held(home);
  // echo-server.sh is bash reading lines: well over 1 MB, well under 1 GB.
  expect(connection!.rssBytes).toBeGreaterThan(1024 * 1024);
  expect(connection!.rssBytes).toBeLessThan(1024 ** 3);
  const { stdout } = await cat(home, ["mcp", "keeper", "status"]);
  expect(stdout).toMatch(/ echo {2}CONNECTED .* 1 call\(s\) {2}rss \d+(\.\d)? MB {2}[0-9a-f]{12} {2}\(stdio: /);
}, 60_000);
