/**
 * A server whose tool definitions or results are nested deep enough to overflow the stack, or are
 * too large or malformed, costs only those tools or that call: `mcp tools`, `mcp call` and the
 * agent's requests to the model (a local Messages API stand-in) go on with the healthy tools.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { MAX_RESULT_DEPTH } from "../../../../src/system/json-depth.ts";
import { reply, resultText, startMessagesStandIn, text, toolResultsOf, toolUse, type MessagesStandIn } from "../../../../fixtures/anthropic/messages-stand-in.ts";
import { runBinary } from "../../../helpers/binary.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, tempDir, writeConfig } from "../../../helpers/paths.ts";

const HOSTILE_TOOLS = ["--deep-tool=60000", "--big-tool=2000000", "--untyped-tool"];
const config = (...flags: string[]) => writeConfig({ chaos: { command: BUN, args: [CHAOS_SERVER, ...flags] } });

let standIn: MessagesStandIn | undefined;
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
});

function modelEnv(stand: MessagesStandIn): Record<string, string> {
  return { CAT_CODE_HOME: tempDir(), ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: stand.url, NO_COLOR: "1" };
}

const warnings = (stderr: string) => stderr.split("\n").filter((line) => line.includes("is left out"));

describe("hostile tool definitions", () => {
  test("mcp tools lists the healthy tools and warns once per bad tool, naming server and tool", async () => {
    const { exitCode, stdout, stderr } = await runBinary(["mcp", "tools", "--mcp-config", config(...HOSTILE_TOOLS)]);
    expect(exitCode).toBe(0);
    expect(stdout.split("\n").map((line) => line.split(/\s+/)[0]).filter(Boolean)).toEqual([
      "mcp__chaos__echo",
      "mcp__chaos__sleep",
      "mcp__chaos__big",
    ]);
    expect(warnings(stderr).map((line) => line.replace(/^.*?MCP tool/, "MCP tool"))).toEqual([
      "MCP tool 'deep' of server 'chaos' is left out: its definition is nested deeper than 64 levels; the server's other tools work",
      "MCP tool 'huge' of server 'chaos' is left out: its definition is 2.0 MB, more than the 1 MB allowed; the server's other tools work",
      `MCP tool 'untyped' of server 'chaos' is left out: its inputSchema has no "type": "object" at the root, which the model API requires; the server's other tools work`,
    ]);
    expect(stderr).not.toContain("Maximum call stack");
  });

  test("mcp call of a healthy tool of that server works", async () => {
    const { exitCode, stdout } = await runBinary(["mcp", "call", "chaos", "echo", "text=still here", "--mcp-config", config(...HOSTILE_TOOLS)]);
    expect([exitCode, stdout]).toEqual([0, "still here\n"]);
  });

  test("the agent's request to the model succeeds, beside a second healthy server, offering only the healthy tools", async () => {
    standIn = startMessagesStandIn([
      reply(toolUse("mcp__chaos__echo", { text: "from the model" })),
      (request) => reply(text(`echo said: ${resultText(toolResultsOf(request)[0])}`)),
    ]);
    const servers = writeConfig({ chaos: { command: BUN, args: [CHAOS_SERVER, ...HOSTILE_TOOLS] }, echo: { command: ECHO_SERVER } });
    const { exitCode, stdout, stderr } = await runBinary(["-p", "use echo", "--allow-all", "--mcp-config", servers], { env: modelEnv(standIn) });
    expect([exitCode, stdout]).toEqual([0, "echo said: from the model\n"]);
    const offered = standIn.requests[0]?.body.tools?.map((tool) => tool.name).filter((name) => name.startsWith("mcp__"));
    expect(offered?.sort()).toEqual(["mcp__chaos__big", "mcp__chaos__echo", "mcp__chaos__sleep", "mcp__echo__echo"]);
    expect(warnings(stderr).length).toBe(3);
  });
});

describe("hostile results", () => {
  const refused = `the server sent a tools/call result nested deeper than ${MAX_RESULT_DEPTH} levels; it was refused`;

  test("mcp call of a result nested 50,000 levels is a clear error with exit 3, not a crash", async () => {
    const { exitCode, stdout, stderr } = await runBinary(["mcp", "call", "chaos", "echo", "text=x", "--mcp-config", config("--deep-result=50000")]);
    expect([exitCode, stdout]).toEqual([3, ""]);
    expect(stderr.trim()).toEndWith(`calling 'echo' on 'chaos' failed: ${refused}`);
  });

  test("in the agent, such a result becomes an error tool_result and the turn goes on", async () => {
    standIn = startMessagesStandIn([
      reply(toolUse("mcp__chaos__echo", { text: "x" })),
      (request) => {
        const result = toolResultsOf(request)[0];
        return reply(text(`is_error=${result?.is_error} ${resultText(result)}`));
      },
    ]);
    const { exitCode, stdout } = await runBinary(["-p", "use echo", "--allow-all", "--mcp-config", config("--deep-result=50000")], {
      env: modelEnv(standIn),
    });
    expect([exitCode, stdout]).toEqual([0, `is_error=true Error: MCP tool 'mcp__chaos__echo' failed: ${refused}\n`]);
  });
});
