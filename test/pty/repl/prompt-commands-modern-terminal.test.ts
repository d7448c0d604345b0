/**
 * Prompt commands and Tab in the 2026-07-28 revision: our modern fixture over Streamable HTTP, in
 * the REPL at a real terminal, the Messages API stand-in checking what the model received. Its
 * `greet` prompt completes `name` from the `style` given before (values with blanks, escaped) and
 * answers with an assistant message; `greet_asked` asks the user a form first (MRTR elicitation).
 */
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startMessagesStandIn, text, type MessagesStandIn, type RecordedRequest } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { BUN, MODERN_SERVER, tempDir } from "../../helpers/paths.ts";
import { LISTENING_ON_MCP, spawnServer, type ServerProcess } from "../../helpers/http-server-process.ts";
import { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { catCode } from "../../helpers/binary.ts";

let terminal: PtyTerminal | undefined;
let standIn: MessagesStandIn | undefined;
let server: ServerProcess | undefined;
afterEach(async () => {
  terminal?.kill();
  await standIn?.stop();
  await server?.stop();
  terminal = standIn = server = undefined;
});

async function startRepl(replies: string[]): Promise<PtyTerminal> {
  server = await spawnServer([BUN, MODERN_SERVER, "--http"], LISTENING_ON_MCP);
  standIn = startMessagesStandIn(replies.map((answer) => reply(text(answer))));
  const configDir = tempDir();
  writeFileSync(join(configDir, "mcp.json"), JSON.stringify({ mcpServers: { modern: { type: "http", url: server.url } } }));
  const started = new PtyTerminal();
  started.start([...catCode(), "--mcp-config", join(configDir, "mcp.json")], {
    cwd: tempDir(),
    env: { CAT_CODE_HOME: tempDir(), ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  await started.waitForText("MCP: 1 server(s)", 30_000);
  return started;
}

const lastLine = (screen: string) => screen.split("\n").at(-1) ?? "";
// Without the prompt-caching mark on the last block (test/unit/agent/prompt-caching.test.ts pins it).
const lastUserContent = (request: RecordedRequest | undefined) =>
  (request?.body.messages.filter((message) => message.role === "user").at(-1)?.content as Record<string, unknown>[] | undefined)?.map(({ cache_control: _, ...block }) => block);

test("greet: Tab completes a name with a blank (escaped) from the style given; the assistant message is quoted", async () => {
  terminal = await startRepl(["Good day."]);
  terminal.send("/mcp__modern__greet style=formal Pr", "\t");
  await terminal.waitFor((screen) => lastLine(screen) === "> /mcp__modern__greet style=formal Prof.\\ Alan", "Prof. Alan completed");
  terminal.send("Enter");
  const screen = await terminal.waitForText("Good day.");
  expect(screen).toContain("⎿ sent prompt mcp__modern__greet (2 message(s))");
  expect(lastUserContent(standIn!.requests[0])).toEqual([
    { type: "text", text: "Please greet Prof. Alan in a formal way." },
    { type: "text", text: "(The prompt's example of an assistant answer:)\nSure." },
  ]);
}, 60_000);

test("greet_asked: the server's form (MRTR) is answered at the terminal before the prompt is sent", async () => {
  terminal = await startRepl(["Hello Grace."]);
  terminal.type("/mcp__modern__greet_asked");
  await terminal.waitFor((screen) => lastLine(screen).startsWith("Name*"), "the form's question");
  terminal.type("Grace");
  await terminal.waitFor((screen) => lastLine(screen).startsWith("Send?"), "Send?");
  terminal.type("y");
  await terminal.waitForText("Hello Grace.");
  expect(lastUserContent(standIn!.requests[0])).toEqual([{ type: "text", text: "Please greet Grace." }]);
}, 60_000);
