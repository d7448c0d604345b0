import { beforeEach, expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { reply, text, toolUse, type MessagesStandIn, type RecordedRequest, type Step } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { childEnv, waitForServers, type PipedCli } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";
import { catCode } from "../../helpers/binary.ts";

const repls = replUnderTest();
let dir: string;
let standIn: MessagesStandIn | undefined;
beforeEach(() => {
  dir = repls.tempDir("cat-code-come-and-go-");
});

async function startRepl(servers: Record<string, unknown>, steps: Step[]): Promise<PipedCli> {
  standIn = repls.startStandIn(steps);
  return repls.piped({ cwd: dir, home: join(dir, "home"), configDir: dir, servers, args: ["--allow-all"] });
}

/** The text of the first user message's first block: where a note to the model goes. */
const firstText = (request: RecordedRequest): string => {
  const content = request.body.messages.at(-1)!.content;
  return typeof content === "string" ? content : String(content[0]?.text ?? "");
};
const toolNames = (request: RecordedRequest) => (request.body.tools ?? []).map((tool) => tool.name);

/** Piped output shows news only with a prompt: an empty line (skipped by the REPL) brings the next one. */
async function poke(repl: PipedCli, line: string, from: number): Promise<number> {
  return waitFor(
    () => {
      const at = repl.output.indexOf(line, from);
      if (at !== -1) return at + line.length;
      repl.send("");
      return false;
    },
    () => `${JSON.stringify(line)}; output so far:\n${repl.output}`,
    { intervalMs: 50 },
  );
}

test("piped input: the first prompt waits for a server still connecting, and its tools are in the first request", async () => {
  const repl = await startRepl(
    { slow: { command: BUN, args: [CHAOS_SERVER, "--slow-ms=500"] }, fast: { command: ECHO_SERVER } },
    [reply(text("all here"))],
  );
  // Sent at once, before the slow server can be ready.
  repl.send("which tools do you have?");
  await repl.waitFor("all here");
  expect(toolNames(standIn!.requests[0]!)).toEqual(expect.arrayContaining(["mcp__slow__echo", "mcp__fast__echo"]));
  repl.end();
  expect(await repl.exited).toBe(0);
}, 30_000);

test("-p: the request waits for a server still connecting; one that never answers is waited for up to its own timeout", async () => {
  await writeFile(
    join(dir, "mcp.json"),
    JSON.stringify({
      mcpServers: {
        slow: { command: BUN, args: [CHAOS_SERVER, "--slow-ms=500"] },
        silent: { command: BUN, args: [CHAOS_SERVER, "--hang=initialize"], timeout: 400 },
        fast: { command: ECHO_SERVER },
      },
    }),
  );
  standIn = repls.startStandIn([reply(text("all here"))]);
  const child = Bun.spawn([...catCode(), "-p", "which tools?", "--mcp-config", join(dir, "mcp.json")], {
    cwd: dir,
    env: childEnv(join(dir, "home"), { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(stdout).toBe("all here\n");
  expect(code).toBe(0);
  expect(stderr).toContain("MCP server 'silent' is not available: initialize timed out after 400 ms");
  const names = toolNames(standIn.requests[0]!);
  expect(names).toEqual(expect.arrayContaining(["mcp__slow__echo", "mcp__fast__echo"]));
  expect(names.some((name) => name.startsWith("mcp__silent__"))).toBe(false);
}, 30_000);

test("a crash is FAILED at once and told to the model; the automatic restart once; /mcp; /mcp reconnect brings it back", async () => {
  const repl = await startRepl({ crashy: { command: BUN, args: [CHAOS_SERVER, "--crash-tool"] }, echo: { command: ECHO_SERVER } }, [
    reply(toolUse("mcp__crashy__crash", { code: 7, stderr: "boom: out of cheese" })),
    reply(text("first crash seen")),
    reply(text("hello back")),
    reply(toolUse("mcp__crashy__crash", { code: 9, stderr: "boom again" })),
    reply(text("second crash seen")),
    reply(text("noted")),
    reply(text("welcome back")),
  ]);
  let at = await waitForServers(repl);
  expect(repl.output).toContain("MCP: 2 server(s), 5 tool(s) registered");

  repl.send("crash it");
  at = await repl.waitFor("first crash seen", at);
  expect(repl.output).toContain("the server exited with code 7");
  expect(repl.output).toContain("MCP server 'crashy' failed: the server exited with code 7");
  expect(repl.output).toContain("restarting it in 1 s");
  // The request right after the crash no longer offers its tools.
  expect(toolNames(standIn!.requests[1]!)).not.toContain("mcp__crashy__echo");
  expect(toolNames(standIn!.requests[1]!)).toContain("mcp__echo__echo");

  at = await poke(repl, "MCP server 'crashy' restarted: 4 tool(s)", at);
  repl.send("hello");
  at = await repl.waitFor("hello back", at);
  expect(firstText(standIn!.requests[2]!)).toContain("MCP server 'crashy' disconnected and is connected again");
  expect(toolNames(standIn!.requests[2]!)).toContain("mcp__crashy__echo");

  repl.send("crash it again");
  at = await repl.waitFor("second crash seen", at);
  expect(repl.output.slice(at - 400)).toContain("/mcp reconnect crashy restarts it");
  repl.send("/mcp");
  at = await repl.waitFor("crashy  FAILED", at);
  at = await repl.waitFor("the server exited with code 9", at);
  at = await repl.waitFor("→ /mcp reconnect crashy", at);

  repl.send("what happened?");
  at = await repl.waitFor("noted", at);
  const note = firstText(standIn!.requests[5]!);
  expect(note).toContain("MCP server 'crashy' disconnected (the server exited with code 9");
  expect(note).toContain("boom again");
  expect(note).toContain("its tools (mcp__crashy__*) are gone");
  expect(toolNames(standIn!.requests[5]!)).not.toContain("mcp__crashy__echo");

  repl.send("/mcp reconnect");
  at = await repl.waitFor("MCP server 'crashy' reconnected: 4 tool(s)", at);
  repl.send("/mcp");
  at = await repl.waitFor("crashy  CONNECTED  4 tool(s)", at);
  at = await repl.waitFor("last error: the server exited with code 9", at);
  repl.send("and now?");
  at = await repl.waitFor("welcome back", at);
  expect(firstText(standIn!.requests[6]!)).toContain("MCP server 'crashy' is connected now");
  expect(toolNames(standIn!.requests[6]!)).toContain("mcp__crashy__crash");

  repl.send("/mcp reconnect nope");
  at = await repl.waitFor("No MCP server 'nope'", at);
  repl.end();
  expect(await repl.exited).toBe(0);
}, 40_000);
