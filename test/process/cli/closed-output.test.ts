/**
 * stdout that goes away or fills up: a reader that closes the pipe early (`| head -c 10`, `| true`)
 * ends cat-code quietly with 141 (128 + SIGPIPE, what a shell reports); a full disk (`> /dev/full`)
 * is one error line and exit 3. Never a stack, and the servers are closed on that path too: each is
 * `sh -c` with a grandchild carrying a unique marker, so "no process left" covers the whole tree.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { reply, startMessagesStandIn, text, type MessagesStandIn } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { catCode, run } from "../../helpers/binary.ts";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";
import { BUN, CHAOS_SERVER, tempDir, uniqueSeconds, writeConfig } from "../../helpers/paths.ts";
import { killAll, waitForNoProcesses } from "../../helpers/processes.ts";

let standIn: MessagesStandIn | undefined;
const markers: string[] = [];
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
  for (const marker of markers.splice(0)) killAll(await waitForNoProcesses(marker, 0));
});

/** A config whose server `tree` is chaos behind `sh -c`, with a grandchild that carries the marker. */
function treeServer(): { config: string; marker: string } {
  const marker = uniqueSeconds();
  markers.push(marker);
  const config = writeConfig({ tree: { command: "sh", args: ["-c", `${BUN} ${CHAOS_SERVER} --grandchild=${marker}; true`] } });
  return { config, marker };
}

/**
 * Runs `cat-code <args>` with its stdout into `shellTail` (`| head -c 10`, `> /dev/full`), and its
 * stdin from `shellHead` if given (`yes /help | head -n 500 |`); the status of cat-code itself.
 */
async function catCodeInto(args: string[], shellTail: string, env: Record<string, string | undefined> = {}, shellHead = "") {
  const index = shellHead ? shellHead.split("|").length - 1 : 0;
  const script = `${shellHead} "$@" ${shellTail}; echo "status=\${PIPESTATUS[${index}]}" >&2`;
  const { stdout, stderr } = await run(["bash", "-c", script, "bash", ...catCode(), ...args], { env: { NO_COLOR: "1", ...env } });
  const status = Number(/status=(\d+)\s*$/.exec(stderr)?.[1]);
  return { status, stdout, stderr: stderr.replace(/status=\d+\s*$/, "") };
}

async function expectNothingLeft(marker: string): Promise<void> {
  const left = await waitForNoProcesses(marker, 5000);
  killAll(left);
  expect(left).toEqual([]);
}

// Warm, the server stays while the keeper runs: "nothing left" is checked once the keeper is stopped.
describe.each(KEEPER_MODES)("%s", (name) => {
  const mode = useKeeperMode(name);

  test("mcp call | head -c 10: the first bytes, then a quiet exit 141, and no server process left", async () => {
    const { config, marker } = treeServer();
    const { status, stdout, stderr } = await catCodeInto(["mcp", "call", "tree", "big", "bytes=5000000", "--mcp-config", config], "| head -c 10", mode.env());
    expect(stdout).toBe("x".repeat(10));
    expect(status).toBe(141);
    expect(stderr).toBe("");
    await mode.stopKeepers();
    await expectNothingLeft(marker);
  });

  test("mcp tools --json | true: a quiet exit 141", async () => {
    const config = writeConfig({ many: { command: BUN, args: [CHAOS_SERVER, "--tools=2000"] } });
    const { status, stderr } = await catCodeInto(["mcp", "tools", "--json", "--mcp-config", config], "| true", mode.env());
    expect(status).toBe(141);
    expect(stderr).toBe("");
  });

  test("mcp call > /dev/full: one error line naming the full disk, exit 3, no stack, no server left", async () => {
    const { config, marker } = treeServer();
    const { status, stderr } = await catCodeInto(["mcp", "call", "tree", "echo", "text=hi", "--mcp-config", config], "> /dev/full", mode.env());
    expect(stderr).toBe("error: cannot write the result to stdout: no space left on the device (ENOSPC)\n");
    expect(status).toBe(3);
    await mode.stopKeepers();
    await expectNothingLeft(marker);
  });
});

test("-p … | true: a quiet exit 141 after the servers are closed", async () => {
  const { config, marker } = treeServer();
  standIn = startMessagesStandIn([reply(text("y".repeat(300_000)))], { apiKey: "sk-test" });
  const env = { CAT_CODE_HOME: tempDir(), ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url };
  const { status, stderr } = await catCodeInto(["-p", "say y", "--mcp-config", config], "| true", env);
  expect(standIn.requests).toHaveLength(1);
  expect(stderr).toBe("");
  expect(status).toBe(141);
  await expectNothingLeft(marker);
});

test("the REPL with its stdout closed (| head -c 5): a quiet exit 141 and no server left", async () => {
  const { config, marker } = treeServer();
  const env = { CAT_CODE_HOME: tempDir() };
  const { status, stdout, stderr } = await catCodeInto(["--mcp-config", config], "| head -c 5", env, "yes /help | head -n 2000 |");
  expect(stdout).toBe("cat-c");
  expect(stderr).toBe("");
  expect(status).toBe(141);
  await expectNothingLeft(marker);
});
