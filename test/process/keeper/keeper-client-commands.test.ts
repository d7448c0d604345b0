import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { keeperPaths } from "../../../src/keeper/keeper-paths.ts";
import { VERSION } from "../../../src/version.ts";
import { catCode, runBinary, type RunResult } from "../../helpers/binary.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, REPO, tempDir, writeConfig } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { FakeKeeper } from "./keeper-launch-fakes.ts";

/**
 * `mcp call | tools | list` through a real keeper, started by the command itself (the test preload
 * turns it off; these tests turn it back on, each in its own CAT_CODE_HOME, and stop it after).
 */
const homes: string[] = [];
afterAll(async () => {
  for (const home of homes) await runBinary(["mcp", "keeper", "stop"], { env: { CAT_CODE_HOME: home } });
});

function newHome(): string {
  const home = tempDir();
  homes.push(home);
  return home;
}

const config = writeConfig({
  echo: { command: ECHO_SERVER },
  crashing: { command: BUN, args: [CHAOS_SERVER, "--crash=on-call"] },
  failing: { command: BUN, args: [CHAOS_SERVER, "--is-error"] },
  cold: { command: ECHO_SERVER, keepAlive: 0 },
  slow: { command: BUN, args: [CHAOS_SERVER] },
  relative: { command: "./fixtures/echo-server.sh" },
});

/** The keeper on (the preload turns it off), in this home. */
function keeperEnv(home: string, env: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: undefined, NO_COLOR: "1", ...env };
}

function cat(home: string, args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  return runBinary(["mcp", ...args, "--mcp-config", config], { env: keeperEnv(home, env) });
}

async function keeperStatus(home: string): Promise<{ running: boolean; connections?: Array<{ name: string; calls: number }> }> {
  const { stdout } = await runBinary(["mcp", "keeper", "status", "--json"], { env: { CAT_CODE_HOME: home } });
  return JSON.parse(stdout);
}

describe("through the keeper, the commands print what they print without it", () => {
  const home = newHome();
  const cold = (args: string[]) => cat(home, [...args, "--no-keeper"]);
  const warm = (args: string[]) => cat(home, args);

  test("mcp call: the same bytes and exit code, twice warm; the second call reuses the first's server", async () => {
    const expected = await cold(["call", "echo", "echo", "text=hi"]);
    expect(expected).toEqual({ exitCode: 0, stdout: "hi\n", stderr: "" });
    expect(await warm(["call", "echo", "echo", "text=hi"])).toEqual(expected);
    expect(await warm(["call", "echo", "echo", "text=hi"])).toEqual(expected);
    const status = await keeperStatus(home);
    expect(status.running).toBe(true);
    expect(status.connections?.filter((c) => c.name === "echo").map((c) => c.calls)).toEqual([2]);
  });

  test("the keeper runs in its own folder, not in the project folder of the command that started it", async () => {
    if (process.platform !== "linux") return; // Read from /proc.
    const paths = keeperPaths({ CAT_CODE_HOME: home });
    expect((await warm(["call", "echo", "echo", "text=hi"])).exitCode).toBe(0);
    const { pid } = JSON.parse(readFileSync(paths.info, "utf8")) as { pid: number };
    expect(readlinkSync(`/proc/${pid}/cwd`)).toBe(paths.folder);
  });

  test("a relative command is found from the command's folder, as cold (the keeper's own folder is elsewhere)", async () => {
    expect(await warm(["call", "relative", "echo", "text=here"])).toEqual({ exitCode: 0, stdout: "here\n", stderr: "" });
  });

  test("a tool's error result, and a server that dies mid-call: the same output and exit codes", async () => {
    for (const args of [
      ["call", "failing", "echo", "text=no"],
      ["call", "crashing", "echo", "text=boom"],
      ["call", "echo", "nosuchtool"],
    ]) {
      const expected = await cold(args);
      expect(expected.exitCode).not.toBe(0);
      expect(await warm(args)).toEqual(expected);
    }
  });

  test("arguments the tool's schema refuses: the keeper finds them, and the command says the same line with exit 2; nothing is called", async () => {
    expect((await warm(["call", "echo", "echo", "text=first"])).exitCode).toBe(0);
    const callsBefore = (await keeperStatus(home)).connections?.find((c) => c.name === "echo")?.calls;
    for (const args of [
      ["call", "echo", "echo", "--json", "{}"],
      ["call", "echo", "echo", "--json", '{"text":5}'],
      ["call", "echo", "echo", "--json", '{"text":null}'],
    ]) {
      const expected = await cold(args);
      expect([expected.exitCode, expected.stdout]).toEqual([2, ""]);
      expect(expected.stderr).toStartWith("error: ");
      expect(await warm(args)).toEqual(expected);
    }
    expect((await keeperStatus(home)).connections?.find((c) => c.name === "echo")?.calls).toBe(callsBefore);
  });

  test("mcp tools and mcp list", async () => {
    for (const args of [["tools"], ["tools", "--json"], ["tools", "echo", "--schema"], ["list"], ["list", "--json"]]) {
      const expected = await cold(args);
      expect(expected.exitCode).toBe(0);
      expect(await warm(args)).toEqual(expected);
    }
  });

  test("an entry with keepAlive: 0 is connected by the command itself, never by the keeper", async () => {
    expect(await warm(["call", "cold", "echo", "text=own"])).toEqual({ exitCode: 0, stdout: "own\n", stderr: "" });
    const status = await keeperStatus(home);
    expect(status.connections?.some((c) => c.name === "cold")).toBe(false);
  });

  test("a warm command loads no pool, client, transport or sign-in code, nor jsonc-parser for a valid config, the stateless era's schemas, the argument validator or (no settings.json) the settings (a cold one does: the guard bites)", async () => {
    const guard = join(REPO, "test", "process", "keeper", "forbid-cold-modules.ts");
    const main = join(REPO, "src", "cli", "main.ts");
    const env = { CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: undefined };
    const { run } = await import("../../helpers/binary.ts");
    const guarded = (...extra: string[]) => run([BUN, "--preload", guard, main, "mcp", "call", "echo", "echo", "text=light", "--mcp-config", config, ...extra], { env });
    expect(await guarded()).toEqual({ exitCode: 0, stdout: "light\n", stderr: "" });
    expect((await guarded("--no-keeper")).stderr).toContain("forbidden module loaded");
    // `mcp list` with no settings.json anywhere has no disabledMcpServers to read: the settings stay unloaded.
    const list = await run([BUN, "--preload", guard, main, "mcp", "list", "--mcp-config", writeConfig({ echo: { command: ECHO_SERVER } })], { env });
    expect(list.stderr).toBe("");
    expect(list.stdout).toContain("echo");
  });
});

describe("a signal to a warm command", () => {
  test("Ctrl-C mid-call: the command exits 130 at once; the server stays warm for the next call", async () => {
    const home = newHome();
    // As runBinary builds it: the same launch context, so the same warm server.
    const env = { ...process.env, ...keeperEnv(home) } as Record<string, string | undefined>;
    expect((await cat(home, ["call", "slow", "echo", "text=warm"])).stdout).toBe("warm\n");
    const child = Bun.spawn([...catCode(), "mcp", "call", "slow", "sleep", "ms=600000", "--mcp-config", config], { cwd: REPO, env, stdout: "pipe", stderr: "pipe" });
    await waitFor(async () => (await keeperStatus(home)).connections?.find((c) => c.name === "slow" && c.calls >= 2), "the sleep call to reach the keeper");
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    expect((await cat(home, ["call", "slow", "echo", "text=still warm"])).stdout).toBe("still warm\n");
    const slow = (await keeperStatus(home)).connections?.filter((c) => c.name === "slow");
    expect(slow?.length).toBe(1); // The same connection: not restarted.
  });
});

describe("the keeper off", () => {
  test("--no-keeper, CAT_CODE_NO_KEEPER=1 and keepAlive 0 for all start no keeper", async () => {
    const home = newHome();
    expect((await cat(home, ["call", "echo", "echo", "text=a", "--no-keeper"])).stdout).toBe("a\n");
    expect((await cat(home, ["list"], { CAT_CODE_NO_KEEPER: "1" })).exitCode).toBe(0);
    expect((await cat(home, ["tools"], { CAT_CODE_KEEP_ALIVE: "0" })).exitCode).toBe(0);
    expect(existsSync(keeperPaths({ CAT_CODE_HOME: home }).socket)).toBe(false);
    expect((await keeperStatus(home)).running).toBe(false);
  });

  test("a keeper that fails at connect: the command connects the servers itself and prints the same", async () => {
    const home = newHome();
    const paths = keeperPaths({ CAT_CODE_HOME: home });
    mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
    const broken = await FakeKeeper.start(paths, { answers: true, version: VERSION, dropOn: "connect" });
    try {
      expect(await cat(home, ["call", "echo", "echo", "text=anyway"])).toEqual({ exitCode: 0, stdout: "anyway\n", stderr: "" });
      // The call goes right behind connect (not waiting for its answer), so it may reach the socket
      // before the keeper drops it; it is never answered, and the command runs the call itself.
      const ops = broken.requests.map((r) => r.op);
      expect(ops.slice(0, 2)).toEqual(["hello", "connect"]);
      expect(ops.slice(2).every((op) => op === "call")).toBe(true);
    } finally {
      await broken.close();
    }
  });

  test("a keeper.json others can read: the command runs cold, with a warning naming the file and the fix", async () => {
    const home = newHome();
    const paths = keeperPaths({ CAT_CODE_HOME: home });
    mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
    writeFileSync(paths.info, "{}");
    chmodSync(paths.info, 0o644);
    const { exitCode, stdout, stderr } = await cat(home, ["call", "echo", "echo", "text=still"]);
    expect([exitCode, stdout]).toEqual([0, "still\n"]);
    expect(stderr).toContain(`${paths.info} is open to other users`);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(existsSync(paths.socket)).toBe(false);
  });
});
