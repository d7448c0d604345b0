import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { ECHO_SERVER } from "../../helpers/paths.ts";
import { waitForServers } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** /clear in the compiled REPL, saving sessions: the new conversation starts with nothing loaded, in a file of its own. */
const repl = replUnderTest();

const ECHO = "mcp__echo__echo";

/** The session files saved under `home`, by path. */
function sessionFiles(home: string): string[] {
  const root = join(home, "sessions");
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl") && !name.includes("checkpoints"))
    .map((name) => join(root, name));
}

const toolNames = (body: { tools?: Array<{ name: string }> }) => (body.tools ?? []).map((tool) => tool.name);

test("/clear then a prompt: the request carries no tool the old conversation loaded; the new file records its own loads; the old file is left as it was", async () => {
  const home = repl.tempDir("cat-code-clear-home-");
  const work = repl.tempDir("cat-code-clear-work-");
  const standIn = repl.startStandIn([
    reply(toolUse("tool_search", { query: ECHO })),
    reply(text("Loaded it.")),
    reply(toolUse("tool_search", { query: ECHO })),
    reply(text("Loaded it again.")),
  ]);
  const cli = repl.piped({ home, cwd: work, servers: { echo: { command: ECHO_SERVER } }, env: { ENABLE_TOOL_SEARCH: "always" } });
  let at = await waitForServers(cli);
  cli.send("find the echo tool");
  at = await cli.waitFor("Loaded it.", at);
  expect(toolNames(standIn.requests[1]!.body)).toContain(ECHO);
  const [first] = sessionFiles(home);
  const firstText = readFileSync(first!, "utf8");
  expect(firstText).toContain('"tools-loaded"');

  cli.send("/clear");
  at = await cli.waitFor("Started a new conversation.", at);
  cli.send("find it again");
  at = await cli.waitFor("Loaded it again.", at);
  expect(toolNames(standIn.requests[2]!.body)).not.toContain(ECHO);
  expect(toolNames(standIn.requests[3]!.body)).toContain(ECHO);
  cli.end();
  expect(await cli.exited).toBe(0);

  const second = sessionFiles(home).find((path) => path !== first)!;
  const loaded = readFileSync(second, "utf8").trim().split("\n").map((line) => JSON.parse(line)).filter((line) => line.type === "tools-loaded");
  expect(loaded).toEqual([{ type: "tools-loaded", names: [ECHO] }]);
  expect(readFileSync(first!, "utf8")).toBe(firstText);
}, 60_000);
