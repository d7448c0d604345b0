import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, resultText, startMessagesStandIn, text, toolResultsOf, toolUse, type MessagesStandIn } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { tempDir } from "../../helpers/paths.ts";
import { BUN, childEnv, REPO } from "../../helpers/cli-process.ts";
import { catCode } from "../../helpers/binary.ts";

/** `-p` has nobody to ask: a server's question is declined, with one line on stderr saying what it asked. */
let standIn: MessagesStandIn | undefined;
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
});

test("print mode declines the modern fixture's ask_name and says so on stderr; the model hears the server's answer", async () => {
  standIn = startMessagesStandIn(
    [reply(toolUse("mcp__modern__ask_name", {})), (request) => reply(text(`The server said: ${resultText(toolResultsOf(request)[0])}`))],
    { apiKey: "sk-test" },
  );
  const dir = tempDir();
  const config = join(dir, "mcp.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { modern: { command: BUN, args: [join(REPO, "fixtures", "modern", "modern-server.ts"), "--stdio"] } } }));
  const env = childEnv(tempDir(), { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url });
  const child = Bun.spawn([...catCode(), "-p", "ask my name", "--allow-all", "--mcp-config", config], { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect([code, stdout]).toEqual([0, "The server said: You declined to give your name.\n"]);
  expect(stderr).toContain('cat-code: modern asked for input ("What is your name?", fields: name, color, formal) — declined: run it in the REPL to answer\n');
}, 60_000);
