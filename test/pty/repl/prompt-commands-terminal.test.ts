/**
 * server-everything's prompts as slash commands of the compiled REPL at a real terminal, with the Messages API
 * stand-in checking what the model received: a missing required argument asked for, an argument
 * completed by Tab, an embedded resource sent as text, and Esc at the question sending nothing.
 */
import { beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, type MessagesStandIn, type RecordedRequest } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { compiledBinary } from "../../helpers/binary.ts";
import { EVERYTHING_SERVER, tempDir } from "../../helpers/paths.ts";
import type { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

let terminal: PtyTerminal | undefined;
let binary: string;
// The compiled binary, as users run it: its bundled readline is what answers Tab.
beforeAll(async () => {
  binary = await compiledBinary();
}, 60_000);
const repl = replUnderTest();
let standIn: MessagesStandIn | undefined;

const EVERYTHING = { command: "node", args: [EVERYTHING_SERVER, "stdio"] };

async function startRepl(replies: string[], server: Record<string, unknown> = EVERYTHING, waitForServers = true): Promise<PtyTerminal> {
  standIn = repl.startStandIn(replies.map((answer) => reply(text(answer))));
  const started = repl.pty({ binary, servers: { everything: server } });
  if (waitForServers) await started.waitForText("MCP: 1 server(s)", 30_000);
  return started;
}

/** The content of the user turn the model received last, without the prompt-caching mark (test/unit/agent/prompt-caching.test.ts pins it). */
function lastUserContent(request: RecordedRequest | undefined): unknown {
  const content = request?.body.messages.filter((message) => message.role === "user").at(-1)?.content as Record<string, unknown>[] | undefined;
  return content?.map(({ cache_control: _, ...block }) => block);
}

const lastLine = (screen: string) => screen.split("\n").at(-1) ?? "";

test("a prompt command asks for its missing required argument, then sends the prompt's message as the turn", async () => {
  terminal = await startRepl(["Sunny in Paris."]);
  terminal.type("/mcp__everything__args-prompt");
  await terminal.waitFor((screen) => lastLine(screen) === "city* (Name of the city):", "the question for city");
  terminal.type("Paris");
  const screen = await terminal.waitForText("Sunny in Paris.");
  expect(screen).toContain("city* (Name of the city): Paris\n⎿ sent prompt mcp__everything__args-prompt (1 message(s))");
  expect(standIn!.requests).toHaveLength(1);
  expect(lastUserContent(standIn!.requests[0])).toEqual([{ type: "text", text: "What's weather in Paris?" }]);
}, 60_000);

test("arguments completed by Tab are sent; an embedded resource reaches the model as text", async () => {
  terminal = await startRepl(["Promoted.", "Read it."]);
  terminal.send("/mcp__everything__completable-prompt Sal", "\t");
  await terminal.waitFor((screen) => lastLine(screen) === "> /mcp__everything__completable-prompt Sales", "Sales completed");
  terminal.send(" E", "\t");
  await terminal.waitFor((screen) => lastLine(screen) === "> /mcp__everything__completable-prompt Sales Eve", "Eve completed");
  terminal.send("Enter");
  await terminal.waitForText("Promoted.");
  expect(lastUserContent(standIn!.requests[0])).toEqual([{ type: "text", text: "Please promote Eve to the head of the Sales team." }]);

  terminal.type("/mcp__everything__resource-prompt resourceId=3 Text");
  await terminal.waitForText("Read it.");
  const content = lastUserContent(standIn!.requests[1]) as Array<{ type: string; text?: string }>;
  expect(content[0]).toEqual({ type: "text", text: "This prompt includes the Text resource with id: 3. Please analyze the following resource:" });
  expect(content[1]?.text).toStartWith("[resource everything:demo://resource/dynamic/text/3");
  expect(content[1]?.text).toContain("Resource 3");
}, 60_000);

test("at the question for a missing argument, Tab offers the server's values, knowing the arguments given", async () => {
  terminal = await startRepl(["Promoted."]);
  terminal.type("/mcp__everything__completable-prompt Marketing");
  const question = "name* (Choose a team member to lead the selected department.): ";
  await terminal.waitFor((screen) => lastLine(screen) === question.trimEnd(), "the question for name");
  terminal.send("Gr", "\t");
  await terminal.waitFor((screen) => lastLine(screen) === `${question}Grace`, "Grace completed");
  terminal.send("Enter");
  await terminal.waitForText("Promoted.");
  expect(lastUserContent(standIn!.requests[0])).toEqual([{ type: "text", text: "Please promote Grace to the head of the Marketing team." }]);
}, 60_000);

test("Esc or Ctrl-C at the question cancels: nothing is sent, and the next prompt works", async () => {
  terminal = await startRepl(["Hello."]);
  terminal.type("/mcp__everything__args-prompt");
  await terminal.waitFor((screen) => lastLine(screen) === "city* (Name of the city):", "the question for city");
  terminal.send("Escape");
  await terminal.waitForText("(cancelled: nothing was sent)");
  terminal.type("/mcp__everything__args-prompt");
  await terminal.waitFor((screen) => lastLine(screen) === "city* (Name of the city):", "the question again");
  terminal.send("Ber", "C-c");
  await terminal.waitFor((screen) => screen.split("(cancelled: nothing was sent)").length === 3, "the second cancel");
  terminal.type("/mcp__everything__args-prompt 'San Francisco' state=CA");
  await terminal.waitForText("Hello.");
  expect(standIn!.requests).toHaveLength(1);
  expect(lastUserContent(standIn!.requests[0])).toEqual([{ type: "text", text: "What's weather in San Francisco, CA?" }]);
}, 60_000);

test("Ctrl-D at the question cancels the command and returns to the prompt; at the empty prompt a second one ends input", async () => {
  terminal = await startRepl([]);
  terminal.type("/mcp__everything__args-prompt");
  await terminal.waitFor((screen) => lastLine(screen) === "city* (Name of the city):", "the question for city");
  terminal.send("C-d");
  await terminal.waitFor((screen) => lastLine(screen) === ">", "the prompt again");
  terminal.send("C-d");
  await terminal.waitForText("(Ctrl-D again to exit)");
  terminal.send("C-d");
  const screen = await terminal.waitForText("[exit 0]");
  expect(screen).toContain("(cancelled: nothing was sent)");
  expect(standIn!.requests).toHaveLength(0);
}, 60_000);

test("a prompt command typed while the servers still connect waits for them", async () => {
  // The server starts only once the test creates the file `go`: until then the REPL is connecting.
  const gate = tempDir();
  const held = { command: "sh", args: ["-c", `while [ ! -f '${gate}/go' ]; do sleep 0.05; done; exec node '${EVERYTHING_SERVER}' stdio`] };
  terminal = await startRepl(["Simple."], held, false);
  await terminal.waitForText("/help for commands");
  terminal.type("/mcp__everything__simple-prompt");
  await terminal.waitForText("> /mcp__everything__simple-prompt");
  writeFileSync(join(gate, "go"), "");
  const screen = await terminal.waitForText("Simple.", 30_000);
  expect(screen).not.toContain("Unknown command");
  expect(lastUserContent(standIn!.requests[0])).toEqual([{ type: "text", text: "This is a simple prompt without arguments." }]);
}, 60_000);
