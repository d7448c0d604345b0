import { afterEach, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, startMessagesStandIn, text, type MessagesStandIn } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { writeConfig } from "../../helpers/paths.ts";
import { BUN, childEnv, PipedCli, REPO } from "../../helpers/cli-process.ts";

/** The REPL with piped stdin: a mention typed before the servers are up, and Ctrl-C (SIGINT) during a read that never ends. */
const PICTURE_SERVER = join(REPO, "fixtures/picture-server.ts");

let dir: string | undefined;
let cli: PipedCli | undefined;
let standIn: MessagesStandIn | undefined;
afterEach(async () => {
  cli?.kill();
  await standIn?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  cli = standIn = dir = undefined;
});

test("a mention sent at once waits for the servers; Ctrl-C during a read that hangs sends nothing and the REPL goes on", async () => {
  dir = await mkdtemp(join(tmpdir(), "cat-code-mentions-piped-"));
  const config = writeConfig({ pic: { command: BUN, args: [PICTURE_SERVER] } }, dir);
  standIn = startMessagesStandIn([reply(text("Seen."))], { apiKey: "k" });
  cli = new PipedCli(["--mcp-config", config], { cwd: dir, env: childEnv(join(dir, "home"), { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: standIn.url }) });
  // Sent before the server is connected: without the wait it would go to the model as plain text.
  cli.send("look at @pic:pic://logo.png");
  let at = await cli.waitFor("⎿ attached pic:pic://logo.png (3.9 KB)");
  at = await cli.waitFor("Seen.", at);
  expect(standIn.requests).toHaveLength(1);

  cli.send("and @pic:pic://slow");
  at = await cli.waitFor("slow read started", at);
  cli.signal("SIGINT");
  at = await cli.waitFor("⎿ Cancelled.", at);
  expect(standIn.requests).toHaveLength(1);
  cli.send("/exit");
  expect(await cli.exited).toBe(0);
}, 60_000);
