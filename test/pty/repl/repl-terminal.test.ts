import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VERSION } from "../../../src/version.ts";
import {
  hang,
  reply,
  resultText,
  startMessagesStandIn,
  text,
  toolResultsOf,
  toolUse,
  type MessagesStandIn,
} from "../../../fixtures/anthropic/messages-stand-in.ts";
import { compiledBinary } from "../../helpers/binary.ts";
import { PtyTerminal } from "../../helpers/pty-terminal.ts";

/**
 * The REPL in a real terminal (a pseudo-terminal read through a terminal emulator), driving the compiled binary: /mcp, a prompt that calls the
 * MCP echo tool, Ctrl-C during a turn, /exit; and what the screen shows at each step.
 */
let dir: string;
let binary: string;
let standIn: MessagesStandIn;
let terminal: PtyTerminal;
let echoServer: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cat-code-repl-"));
  // A copy of its own: "no cat-code process is left" must not see other tests' runs of the shared binary.
  binary = join(dir, "cat-code");
  await copyFile(await compiledBinary(), binary);
  // A copy with a path of its own, so the leftover-process check cannot see other tests' servers.
  echoServer = join(dir, "echo-server.sh");
  await copyFile(join(import.meta.dir, "../../../fixtures/echo-server.sh"), echoServer);
  await Bun.$`chmod +x ${echoServer}`;
  await writeFile(join(dir, "mcp.json"), JSON.stringify({ mcpServers: { echo: { command: echoServer } } }));
  standIn = startMessagesStandIn(
    [
      reply(text("Calling the echo tool."), toolUse("mcp__echo__echo", { text: "你好" })),
      (request) => reply(text(`The echo tool said: ${resultText(toolResultsOf(request)[0])}`)),
      // One delta (the stand-in streams 8 characters a delta): once the status line says writing,
      // all of it has come, however slowly the REPL reads on a busy machine.
      hang("Thinking"),
    ],
    { eventDelayMs: 5, apiKey: "sk-test" },
  );
  terminal = new PtyTerminal();
}, 60_000);

afterAll(async () => {
  terminal?.kill();
  await standIn?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Live processes (not zombies) with `path` as one of their argv words: the program or its script. */
async function processesRunning(path: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir("/proc").catch(() => [])) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    if (cmdline.split("\0").includes(path) && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z") found.push(`${pid} ${cmdline.replace(/\0/g, " ")}`);
  }
  return found;
}

test("the REPL in a terminal: /mcp, a tool-calling prompt, Ctrl-C during a turn, /exit", async () => {
  terminal.start([binary, "--mcp-config", join(dir, "mcp.json")], {
    cwd: dir,
    env: { ANTHROPIC_BASE_URL: standIn.url, ANTHROPIC_API_KEY: "sk-test", CAT_CODE_HOME: join(dir, "home"), CAT_CODE_MODEL: "claude-test" },
  });

  let screen = await terminal.waitForText("MCP: 1 server(s), 1 tool(s) registered");
  expect(screen.split("\n")[0]).toBe(`cat-code ${VERSION} · claude-test · /help for commands, Ctrl-D twice to exit`);
  expect(screen.split("\n").at(-1)).toBe(">");

  terminal.type("/mcp");
  screen = await terminal.waitForText("echo  CONNECTED  1 tool(s)");
  // The /mcp table: state, tools, revision, time to connect, where it runs (a long row may wrap on screen).
  expect(screen).toMatch(/> \/mcp\nMCP servers:\n {2}echo {2}CONNECTED {2}1 tool\(s\) {2}\d{4}-\d\d-\d\d \(handshake\) {2}(\d+ ms|\d+\.\d s) {2}\(stdio: /);

  terminal.type("use the echo tool to say 你好");
  screen = await terminal.waitForText("Allow mcp__echo__echo? [y]es / [n]o / [a]lways for this tool");
  expect(screen).toContain('mcp__echo__echo wants to run with these arguments:\n  {\n    "text": "你好"\n  }');
  terminal.type("y");
  screen = await terminal.waitForText("The echo tool said: 你好");
  expect(screen).toContain('⏺ mcp__echo__echo {"text":"你好"} → "你好"');
  expect(screen.indexOf("Calling the echo tool.")).toBeLessThan(screen.indexOf("⏺ mcp__echo__echo"));
  expect(standIn.requests[0]!.body.tools!.map((tool) => tool.name)).toContain("mcp__echo__echo");
  expect(toolResultsOf(standIn.requests[1]!)).toEqual([expect.objectContaining({ content: "你好" })]);

  terminal.type("think about it for a long time");
  await standIn.hanging;
  // A paragraph still growing is not shown (the answer is rendered a finished block at a time):
  // the status line says the answer is being written; Ctrl-C shows what came and cancels.
  await terminal.waitFor((s) => / writing · \d+ s/.test(s), "the status line saying writing");
  terminal.send("C-c");
  screen = await terminal.waitForText("⎿ Cancelled.");
  expect(screen).toContain("Thinking\n⎿ Cancelled.");
  await standIn.hangAbandoned;
  // Back at an empty prompt, still usable.
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "a fresh prompt");
  terminal.type("/tools");
  screen = await terminal.waitForText("mcp__echo__echo  read-only  Echo back the input text");
  expect(screen).toContain("edit_file");

  // The server runs while the REPL does, so the check after /exit can see it gone.
  expect(await processesRunning(echoServer)).toHaveLength(1);
  terminal.type("/exit");
  screen = await terminal.waitForText("[exit 0]");
  expect(await processesRunning(echoServer)).toEqual([]);
  expect(await processesRunning(binary)).toEqual([]);
}, 60_000);

test("in a terminal: up-arrow recalls the last line, and Ctrl-C twice at an empty prompt exits", async () => {
  const second = new PtyTerminal();
  try {
    second.start([binary, "--mcp-config", join(dir, "mcp.json")], {
      cwd: dir,
      env: { ANTHROPIC_API_KEY: "", CAT_CODE_HOME: join(dir, "home-2") },
    });
    await second.waitForText("MCP: 1 server(s), 1 tool(s) registered");
    second.type("/mcp tools");
    await second.waitForText("mcp__echo__echo");
    second.send("Up");
    await second.waitFor((s) => s.split("\n").at(-1) === "> /mcp tools", "the recalled line at the prompt");
    second.send("C-c");
    await second.waitFor((s) => s.split("\n").at(-1)?.trim() === ">", "the line cleared by Ctrl-C");
    second.send("C-c");
    await second.waitForText("(Ctrl-C again to exit)");
    second.send("C-c");
    await second.waitForText("[exit 0]");
  } finally {
    second.kill();
  }
}, 30_000);
