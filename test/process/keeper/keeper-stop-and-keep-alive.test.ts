/**
 * Through the compiled binary and a real keeper: `mcp keeper stop <server>` answers as soon as no
 * command can get that server's connections, however long the server takes to close; and
 * `--keep-alive` changes how long a server is kept, never which process serves it.
 */
import { expect, test } from "bun:test";
import { BUN, CHAOS_SERVER, ECHO_SERVER, uniqueSeconds, writeConfig } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { cat, newHome, serverPids, useKeeperFaultHarness } from "../../helpers/keeper-fault-harness.ts";

useKeeperFaultHarness();

async function keeperConnections(home: string): Promise<Array<{ name: string; calls: number }>> {
  const { stdout } = await cat(home, ["mcp", "keeper", "status", "--json"]);
  return (JSON.parse(stdout) as { connections?: Array<{ name: string; calls: number }> }).connections ?? [];
}

test("mcp keeper stop <server> with a server that lingers on close: answered at once (exit 0), and the server still ends", async () => {
  const home = newHome();
  const marker = uniqueSeconds();
  // --linger: stdin's end does not stop it; the keeper's close goes on to SIGTERM after its 2 s grace.
  const config = writeConfig({ linger: { command: BUN, args: [CHAOS_SERVER, "--linger", marker] } });
  expect((await cat(home, ["mcp", "call", "linger", "echo", "text=hi", "--mcp-config", config])).stdout).toBe("hi\n");
  expect(serverPids(marker)).toHaveLength(1);

  const stop = await cat(home, ["mcp", "keeper", "stop", "linger"]);
  expect([stop.exitCode, stop.stdout, stop.stderr]).toEqual([0, "Stopped 1 warm connection(s) of 'linger'; its next command starts it afresh.\n", ""]);
  expect(await keeperConnections(home)).toEqual([]);
  await waitFor(() => serverPids(marker).length === 0, "the lingering server to be ended", { timeoutMs: 20_000 });
}, 30_000);

test("--keep-alive does not split a server: mcp call, mcp call --keep-alive 120, mcp tools keep two processes (call and tools), not three", async () => {
  const home = newHome();
  const marker = uniqueSeconds();
  const config = writeConfig({ e: { command: ECHO_SERVER, args: [marker] } });
  const run = (...args: string[]) => cat(home, ["mcp", ...args, "--mcp-config", config]);
  expect((await run("call", "e", "echo", "text=one")).stdout).toBe("one\n");
  expect((await run("call", "e", "echo", "text=two", "--keep-alive", "120")).stdout).toBe("two\n");
  expect((await run("tools", "e")).exitCode).toBe(0);
  // The call/tools split is meant: a server may list other tools to a client that answers its questions.
  expect((await keeperConnections(home)).map((c) => [c.name, c.calls]).sort()).toEqual([
    ["e", 0],
    ["e", 2],
  ]);
  expect(serverPids(marker)).toHaveLength(2);
}, 30_000);
