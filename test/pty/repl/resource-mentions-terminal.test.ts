import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, startMessagesStandIn, text, toolResultsOf, toolUse, type MessagesStandIn } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { compiledBinary } from "../../helpers/binary.ts";
import { BUN, EVERYTHING_SERVER, REPO } from "../../helpers/paths.ts";
import { PtyTerminal } from "../../helpers/pty-terminal.ts";

/**
 * `@server:uri` in the REPL, in a real terminal with the compiled binary: the attached line, what the
 * model receives, a failed read that sends nothing, the news when an attached resource changes, and
 * a tool's image shown as `[image 20×20 png]`.
 */
const PICTURE_SERVER = join(REPO, "fixtures/picture-server.ts");
const ARCHITECTURE = "demo://resource/static/document/architecture.md";

let dir: string;
let binary: string;
let standIn: MessagesStandIn;
let terminal: PtyTerminal;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cat-code-mentions-pty-"));
  binary = await compiledBinary();
  const servers = { everything: { command: BUN, args: [EVERYTHING_SERVER, "stdio"] }, pic: { command: BUN, args: [PICTURE_SERVER] } };
  await writeFile(join(dir, "mcp.json"), JSON.stringify({ mcpServers: servers }));
  standIn = startMessagesStandIn(
    [
      reply(text("Read it.")),
      reply(toolUse("mcp__everything__toggle-subscriber-updates", {})),
      reply(text("Updates are on.")),
      reply(toolUse("mcp__pic__draw", {})),
      reply(text("Drawn.")),
    ],
    { apiKey: "sk-test" },
  );
  terminal = new PtyTerminal();
}, 90_000);

afterAll(async () => {
  terminal?.kill();
  await standIn?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("the REPL in a terminal: @everything:… attaches the resource; a failed read sends nothing; a change is news", async () => {
  terminal.start([binary, "--mcp-config", join(dir, "mcp.json"), "--allow-all"], {
    cwd: dir,
    env: { ANTHROPIC_BASE_URL: standIn.url, ANTHROPIC_API_KEY: "sk-test", CAT_CODE_HOME: join(dir, "home"), CAT_CODE_MODEL: "claude-test" },
  });
  await terminal.waitForText("MCP: 2 server(s)");

  terminal.type(`summarize @everything:${ARCHITECTURE}.`);
  let screen = await terminal.waitForText("Read it.");
  expect(screen).toMatch(new RegExp(`> summarize @everything:${ARCHITECTURE}\\.\\n⎿ attached everything:${ARCHITECTURE} \\(\\d+\\.\\d KB\\)\\n`));
  const turn = standIn.requests[0]!.body.messages[0]!.content as { type: string; text: string }[];
  expect(turn.map((b) => b.text.split("\n")[0])).toEqual([`summarize @everything:${ARCHITECTURE}.`, `[resource everything:${ARCHITECTURE}, text/markdown]`]);

  terminal.type("and @pic:pic://broken too");
  screen = await terminal.waitForText("(nothing was sent)");
  expect(screen).toContain("error: could not attach @pic:pic://broken: ");
  expect(screen).toContain("the disk is on fire");
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "a fresh prompt");
  expect(standIn.requests).toHaveLength(1);

  // The model turns server-everything's updates on; the resource attached above was subscribed.
  terminal.type("turn on the updates");
  await terminal.waitForText("Updates are on.");
  screen = await terminal.waitForText(`MCP: everything says ${ARCHITECTURE} changed (mention it again to send the new content)`);

  terminal.type("draw the logo");
  screen = await terminal.waitForText("Drawn.");
  expect(screen).toContain('⏺ mcp__pic__draw {} →\n    here it is\n    [image 20×20 png]');
  expect((toolResultsOf(standIn.requests.at(-1)!)[0]!.content as { type: string }[]).map((b) => b.type)).toEqual(["text", "image"]);

  terminal.type("/exit");
  await terminal.waitForText("[exit 0]");
}, 60_000);
