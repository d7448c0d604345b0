import { beforeEach, expect, test } from "bun:test";
import { reply, text, type MessagesStandIn } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { childEnv, PipedCli } from "../../helpers/cli-process.ts";
import { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";
import { catCode } from "../../helpers/binary.ts";

/** Sessions gone on with in a new process: the --resume list at a terminal, --continue, a first prompt. */
const repl = replUnderTest();
let home: string;
let work: string;
let standIn: MessagesStandIn | undefined;
let terminal: PtyTerminal | undefined;
beforeEach(() => {
  home = repl.tempDir("cat-code-resume-home-");
  work = repl.tempDir("cat-code-resume-work-");
});

function env(): Record<string, string> {
  return childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn!.url, CAT_CODE_MODEL: "claude-sonnet-5-5" });
}

async function printRun(prompt: string): Promise<void> {
  const child = Bun.spawn([...catCode(), "-p", prompt], { cwd: work, env: env(), stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  expect([code, stderr]).toEqual([0, ""]);
}

test("--resume at a terminal: a list of this folder's sessions, the one picked shown compactly and sent on", async () => {
  standIn = repl.startStandIn([reply(text("The apple answer.")), reply(text("The pear answer.")), reply(text("Still about apples."))]);
  await printRun("tell me about apples");
  await printRun("tell me about pears");

  terminal = repl.track(new PtyTerminal());
  terminal.start([...catCode(), "--resume"], { cwd: work, env: env() });
  let screen = await terminal.waitForText("Resume which? [1-2, Enter: 1, q: none]");
  const list = screen.split("\n").filter((line) => /^\s+\d\s/.test(line));
  // Newest first: number, date, message count, first prompt.
  expect(list).toHaveLength(2);
  expect(list[0]).toMatch(/^ {2}1 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}2 msg {2}tell me about pears$/);
  expect(list[1]).toMatch(/^ {2}2 {2}.* {2}2 msg {2}tell me about apples$/);

  terminal.type("2");
  screen = await terminal.waitForText("⏺ The apple answer.");
  expect(screen).toMatch(/Resumed session [0-9a-f-]{36} \(2 messages\)\n> tell me about apples\n⏺ The apple answer\./);
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "the prompt");

  terminal.type("and more?");
  await terminal.waitForText("Still about apples.");
  const sent = standIn.requests[2]!.body.messages;
  expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  expect(JSON.stringify(sent[0])).toContain("tell me about apples");
  terminal.send("C-d", "C-d");
  await terminal.waitForText("[exit 0]");
});

test("--resume at a terminal, left with q: nothing resumed, nothing started, exit 0", async () => {
  standIn = repl.startStandIn([reply(text("An answer."))]);
  await printRun("a question");
  terminal = repl.track(new PtyTerminal());
  terminal.start([...catCode(), "--resume"], { cwd: work, env: env() });
  await terminal.waitForText("Resume which?");
  terminal.type("q");
  const screen = await terminal.waitForText("[exit 0]");
  expect(screen).not.toContain("cat-code ");
  expect(standIn.requests).toHaveLength(1);
});

test("--continue in the REPL shows the last exchanges, one line each, and goes on from them", async () => {
  standIn = repl.startStandIn([reply(text("First answer\nwith a second line.")), (request) => reply(text(`${request.body.messages.length} messages in`))]);
  await printRun("first question");
  const cli = new PipedCli(["--continue"], { cwd: work, env: env() });
  await cli.waitFor("> first question\n⏺ First answer with a second line.\n");
  cli.send("second question");
  await cli.waitFor("3 messages in");
  cli.end();
  expect(await cli.exited).toBe(0);
  expect(cli.output).toMatch(/Resumed session [0-9a-f-]{36} \(2 messages\)/);
});

test("cat-code \"question\" starts the REPL with that prompt sent first", async () => {
  standIn = repl.startStandIn([reply(text("Hello to you."))]);
  const cli = new PipedCli(["say hello"], { cwd: work, env: env() });
  await cli.waitFor("Hello to you.");
  cli.end();
  expect(await cli.exited).toBe(0);
  expect(cli.output).toContain("> say hello\n");
  expect(standIn.requests[0]!.body.messages).toMatchObject([{ role: "user", content: [{ type: "text", text: "say hello" }] }]);
});
