import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, resultText, text, toolResultsOf, toolUse, type RecordedRequest } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { BUN } from "../../helpers/cli-process.ts";
import { CHAOS_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * A prompt sent while a server is still connecting: the model is told which one in that request,
 * calls wait_for_mcp_servers, and gets the server's tools once it has connected. The server answers
 * `initialize` only once the test creates its gate file, so "still connecting" holds as long as needed.
 */
const repl = replUnderTest();

const toolNames = (request: RecordedRequest) => (request.body.tools as { name: string }[]).map((tool) => tool.name);
const userText = (request: RecordedRequest) => JSON.stringify(request.body.messages[0]);

test("the first prompt tells the model which servers are still connecting; wait_for_mcp_servers waits for them", async () => {
  const dir = tempDir();
  const gate = join(dir, "gate");
  const config = writeConfig({ slow: { command: BUN, args: [CHAOS_SERVER, `--initialize-until=${gate}`] } }, dir);
  const standIn = repl.startStandIn([reply(toolUse("wait_for_mcp_servers", { servers: ["slow"] })), reply(text("The slow server is here."))]);
  const terminal = repl.pty({ cwd: dir, home: join(dir, "home"), mcpConfig: config });
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("use the slow server");
  await terminal.waitForText("wait_for_mcp_servers");
  writeFileSync(gate, "");
  await terminal.waitForText("The slow server is here.", 20_000);

  const [first, second] = standIn.requests as [RecordedRequest, RecordedRequest];
  expect(userText(first)).toContain("MCP server(s) still connecting: 'slow'. Their tools (mcp__<server>__*) are not available yet; if you need one, call wait_for_mcp_servers (it waits at most 60 s)");
  expect(toolNames(first)).toContain("wait_for_mcp_servers");
  expect(toolNames(first)).not.toContain("mcp__slow__echo");
  expect(resultText(toolResultsOf(second)[0])).toMatch(/^Connected: slow \(\d+ tool\(s\), mcp__slow__\*\)$/);
  expect(toolNames(second)).toContain("mcp__slow__echo");
  terminal.type("/exit");
  await terminal.waitForText("[exit 0]");
}, 60_000);
