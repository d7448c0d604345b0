import { beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { BUN, REPO, waitForServers } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** The default (`auto`) with a server of 1,000 tools: past 10% of the window they are deferred; /context says what it costs. */
const MANY_TOOLS = join(REPO, "fixtures/bench/many-tools-server.ts");

const repl = replUnderTest();
let dir: string;
beforeEach(() => {
  dir = repl.tempDir("cat-code-context-");
});

test("1,000 tools under `auto`: /context counts them deferred, and the first request carries none of them", async () => {
  const standIn = repl.startStandIn([reply(text("hello back"))]);
  const cli = repl.piped({
    cwd: dir,
    home: join(dir, "home"),
    configDir: dir,
    servers: { big: { command: BUN, args: [MANY_TOOLS, "--tools=1000", "--seed=big"] } },
    env: { CAT_CODE_MODEL: "claude-sonnet-4-5" },
  });
  let at = await waitForServers(cli);
  cli.send("/context");
  at = await cli.waitFor("free space", at);
  expect(cli.output).toContain("counted by the API");
  expect(cli.output).toMatch(/▞ MCP tools deferred \(1,000\) +[\d,]+ +[\d.]+% +the search tool and the names; their definitions, ~[\d,]+, are not sent\n +big \(1,000 tools\)/);
  cli.send("hello");
  at = await cli.waitFor("hello back", at);
  const first = standIn.requests[0]!;
  expect(first.body.tools!.map((tool) => tool.name).filter((name) => name.startsWith("mcp__"))).toEqual([]);
  expect(JSON.stringify(first.body.system)).toContain("big (mcp__big__…): create_issue_big_0 list_issue_big_1");
  cli.end();
  expect(await cli.exited).toBe(0);
}, 60_000);

test("after a tool call /context is still counted by the API: the history's tool blocks are counted beside the tools", async () => {
  const standIn = repl.startStandIn([reply(toolUse("glob", { pattern: "*" })), reply(text("Nothing here."))]);
  const cli = repl.piped({ cwd: dir, home: join(dir, "home"), mcpConfig: false, args: ["--allow-all"] });
  await cli.waitFor("> ");
  cli.send("look around");
  let at = await cli.waitFor("Nothing here.");
  cli.send("/context");
  at = await cli.waitFor("free space", at);
  expect(cli.output.slice(at - 2000)).toContain("counted by the API");
  expect(cli.output).not.toContain("~estimate");
  const withHistory = standIn.countRequests.filter((request) => request.body.messages.length > 1);
  expect(withHistory.length).toBeGreaterThan(0);
  for (const request of withHistory) expect(request.body.tools?.length).toBeGreaterThan(0);
  cli.end();
  expect(await cli.exited).toBe(0);
}, 60_000);
