import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startMessagesStandIn, text, type MessagesStandIn } from "../../fixtures/anthropic/messages-stand-in.ts";
import { tempDir } from "../helpers/paths.ts";
import { childEnv, PipedCli } from "./cli-process.ts";

let standIn: MessagesStandIn | undefined;
let cli: PipedCli | undefined;
afterEach(async () => {
  cli?.kill();
  cli = undefined;
  await standIn?.stop();
  standIn = undefined;
});

test("piped, the answer is the model's text as it is: Markdown not rendered, no escape sequence, no status line", async () => {
  const answer = "## Results\n\nThe **build** passed.\n\n| test | time |\n|---|---|\n| unit | 2 s |\n";
  standIn = startMessagesStandIn([reply(text(answer))]);
  const dir = tempDir();
  writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers: {} }));
  // NO_COLOR unset: being piped is enough.
  const env = childEnv(join(dir, "home"), { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url });
  delete env.NO_COLOR;
  cli = new PipedCli(["--mcp-config", join(dir, "mcp.json")], { cwd: dir, env });
  await cli.waitFor("> ");
  cli.send("report");
  const at = await cli.waitFor("| unit | 2 s |\n");
  expect(cli.output).toContain(answer);
  expect(cli.output).not.toMatch(/\u001b|\r/);
  expect(cli.output.slice(0, at)).not.toContain("thinking");
});
