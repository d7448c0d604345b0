import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { BUN, CHAOS_SERVER } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { waitForServers, type PipedCli } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

const repls = replUnderTest();
const count = (text: string, needle: string) => text.split(needle).length - 1;

/** Piped output shows news only with a prompt: an empty line brings the next one; resolves once it is out. */
async function nextPrompt(repl: PipedCli): Promise<void> {
  const before = count(repl.output, "> ");
  repl.send("");
  await waitFor(() => count(repl.output, "> ") > before, "the next prompt");
}

test("a server announcing tools/list_changed every 100 ms with the same list makes no news; a real change makes one line", async () => {
  const dir = repls.tempDir("cat-code-tool-news-");
  const record = join(dir, "received.jsonl");
  const listings = () => (existsSync(record) ? count(readFileSync(record, "utf8"), '"method":"tools/list"') : 0);
  repls.startStandIn([reply(toolUse("mcp__chatty__grow", {})), reply(text("grown"))]);
  const repl = repls.piped({
    cwd: dir,
    home: join(dir, "home"),
    configDir: dir,
    servers: { chatty: { command: BUN, args: [CHAOS_SERVER, "--growing", "--announce-every=100", `--record=${record}`] } },
    args: ["--allow-all"],
  });
  await repl.waitFor("> ");
  let at = await waitForServers(repl);
  await waitFor(() => listings() >= 6, "the server's tools listed again after several announcements");
  await nextPrompt(repl);
  expect(repl.output).not.toContain("now has");

  repl.send("grow a tool");
  at = await repl.waitFor("grown", at);
  const seen = listings();
  await waitFor(() => listings() >= seen + 4, "more announcements after the change");
  await nextPrompt(repl);
  await nextPrompt(repl);
  expect(count(repl.output, "MCP: chatty now has 5 tool(s)")).toBe(1);
  expect(count(repl.output, "now has")).toBe(1);
  repl.end();
  expect(await repl.exited).toBe(0);
}, 30_000);
