/**
 * Signals to the compiled binary while its server is busy. The server is started through `sh -c`
 * and has a grandchild, so "no process remains" covers the whole tree; every process of it carries
 * a unique marker in its command line.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startMessagesStandIn, text, toolUse, type MessagesStandIn } from "../../fixtures/anthropic/messages-stand-in.ts";
import { compiledBinary } from "../helpers/binary.ts";
import { BUN, CHAOS_SERVER, tempDir, uniqueSeconds, writeConfig } from "../helpers/paths.ts";
import { killAll, waitForNoProcesses } from "../helpers/processes.ts";
import { waitFor } from "../helpers/wait-for.ts";

/** Every signal whose default is to end the process: each must go through the same cleanup as SIGTERM. */
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGUSR1: 10, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15 } as const;
type SignalName = keyof typeof SIGNAL_NUMBERS;

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A config whose one server, `busy`, is chaos behind `sh -c` with a grandchild, recording what it receives. */
function busyServer(): { config: string; marker: string; record: string; dir: string } {
  const dir = tempDir();
  const marker = uniqueSeconds();
  const record = join(dir, "received.ndjson");
  const config = writeConfig(
    { busy: { command: "sh", args: ["-c", `${BUN} ${CHAOS_SERVER} --grandchild=${marker} --record=${record}; true`] } },
    dir,
  );
  cleanups.push(async () => killAll(await waitForNoProcesses(marker, 0)));
  return { config, marker, record, dir };
}

function waitForFile(path: string, needle: string, timeoutMs = 20_000): Promise<unknown> {
  return waitFor(() => existsSync(path) && readFileSync(path, "utf8").includes(needle), `${needle} to reach the server`, { timeoutMs });
}

function waitForOutput(output: () => string, needle: string): Promise<unknown> {
  return waitFor(() => output().includes(needle), `${JSON.stringify(needle)} in the output`);
}

function spawnBinary(binary: string, args: string[], env: Record<string, string> = {}, cwd?: string) {
  const child = Bun.spawn([binary, ...args], {
    cwd,
    env: { ...process.env, CAT_CODE_HOME: "/nonexistent-cat-code-home", NO_COLOR: "1", ...env } as Record<string, string>,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  cleanups.push(() => child.kill("SIGKILL"));
  let output = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += new TextDecoder().decode(chunk);
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  return { child, output: () => output, drained };
}

/** Sends the signal; resolves to the exit code and how long the exit took. */
async function signalAndTime(child: Bun.Subprocess, signal: SignalName): Promise<{ code: number; ms: number }> {
  const started = performance.now();
  child.kill(signal);
  const code = await Promise.race([child.exited, Bun.sleep(10_000).then(() => -1)]);
  return { code, ms: performance.now() - started };
}

/** The promise of this file: the signal's exit code within 5 s, and no server process or grandchild left. */
async function expectExitAndNothingLeft(child: Parameters<typeof signalAndTime>[0], signal: SignalName, marker: string): Promise<void> {
  const { code, ms } = await signalAndTime(child, signal);
  expect(code).toBe(128 + SIGNAL_NUMBERS[signal]);
  expect(ms).toBeLessThan(5000);
  const left = await waitForNoProcesses(marker, 3000);
  killAll(left);
  expect(left).toEqual([]);
}

describe("signals to cat-code mcp call (compiled) while its server is busy", () => {
  for (const signal of Object.keys(SIGNAL_NUMBERS) as SignalName[]) {
    test(`${signal}: exits ${128 + SIGNAL_NUMBERS[signal]} within 5 s and no server process or grandchild remains`, async () => {
      const binary = await compiledBinary();
      const { config, marker, record } = busyServer();
      const { child } = spawnBinary(binary, ["mcp", "call", "busy", "sleep", "ms=60000", "--mcp-config", config]);
      await waitForFile(record, '"tools/call"');
      await expectExitAndNothingLeft(child, signal, marker);
    });
  }
});

describe("signals to the REPL (compiled) while an MCP tool call is busy", () => {
  let standIn: MessagesStandIn | undefined;
  afterEach(async () => {
    await standIn?.stop();
    standIn = undefined;
  });

  async function busyRepl() {
    const binary = await compiledBinary();
    const server = busyServer();
    standIn = startMessagesStandIn([reply(toolUse("mcp__busy__sleep", { ms: 60_000 })), reply(text("done after the cancel"))]);
    const repl = spawnBinary(binary, ["--mcp-config", server.config], { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url }, server.dir);
    const send = async (line: string) => {
      repl.child.stdin.write(`${line}\n`);
      await repl.child.stdin.flush();
    };
    // Piped stdin: servers connect in the background, so ask /mcp until the tool is there.
    await waitForOutput(repl.output, "> ");
    await waitFor(
      async () => {
        if (/busy\s+CONNECTED/.test(repl.output())) return true;
        await send("/mcp");
        return false;
      },
      "the busy server to show as CONNECTED in /mcp",
      { intervalMs: 50 },
    );
    await send("use the busy tool");
    await waitForOutput(repl.output, "Allow mcp__busy__sleep");
    await send("y");
    await waitForFile(server.record, '"tools/call"');
    return { ...server, ...repl };
  }

  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    test(`${signal}: exits within 5 s and no server process or grandchild remains`, async () => {
      const { child, marker } = await busyRepl();
      await expectExitAndNothingLeft(child, signal, marker);
    });
  }

  test("SIGINT cancels the busy call (the server is told), the REPL lives on, and exits cleanly at end of input", async () => {
    const { child, marker, record, output, drained } = await busyRepl();
    child.kill("SIGINT");
    await waitForFile(record, '"notifications/cancelled"', 5000);
    child.stdin.end();
    const code = await Promise.race([child.exited, Bun.sleep(10_000).then(() => -1)]);
    await drained;
    expect(code).toBe(0);
    expect(output()).toContain("Cancelled");
    const left = await waitForNoProcesses(marker, 3000);
    killAll(left);
    expect(left).toEqual([]);
  });
});
