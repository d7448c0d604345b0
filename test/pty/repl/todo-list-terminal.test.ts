import { expect, test } from "bun:test";
import { hang, reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { catCode } from "../../helpers/binary.ts";
import { childEnv } from "../../helpers/cli-process.ts";
import { tempDir } from "../../helpers/paths.ts";
import { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** The model's todo list at a real terminal: live under the status line while the turn runs, Ctrl-T toggling it. */
const repl = replUnderTest();

const PLAN = [
  { content: "Read the failing test", status: "completed", activeForm: "Reading the failing test" },
  { content: "Fix the parser", status: "in_progress", activeForm: "Fixing the parser" },
  { content: "Run the tests", status: "pending", activeForm: "Running the tests" },
];

test("the todo list shows under the status line as the model writes it; Ctrl-T hides it, and at the prompt prints it", async () => {
  repl.startStandIn([reply(toolUse("todo_write", { todos: PLAN })), hang(""), reply(text("Done."))]);
  const terminal = repl.pty({ cwd: tempDir(), env: {} });
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("fix the parser");
  let screen = await terminal.waitForText("Todos 1/3 · ctrl+t to hide");
  // Under the spinner, one row per item, the current one in its active form.
  expect(screen).toMatch(/ [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] thinking · \d+ s.*\n {3}Todos 1\/3 · ctrl\+t to hide\n {3}☒ Read the failing test\n {3}◼ Fixing the parser\n {3}☐ Run the tests$/);

  terminal.send("\u0014");
  screen = await terminal.waitFor((s) => !s.includes("Todos 1/3"), "the list hidden");
  expect(screen).toMatch(/ [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] thinking · \d+ s/);
  terminal.send("\u0014");
  await terminal.waitForText("◼ Fixing the parser");

  terminal.send("C-c");
  screen = await terminal.waitFor((s) => s.includes("⎿ Cancelled.") && s.endsWith(">"), "the cancelled turn and the prompt");
  // Erasing the status line took the list with it.
  expect(screen).not.toContain("Todos 1/3");
  terminal.send("\u0014");
  await terminal.waitForText("Todo list hidden (ctrl+t shows it)");
  terminal.send("\u0014");
  screen = await terminal.waitFor((s) => s.includes("☐ Run the tests") && s.endsWith(">"), "the list printed above the prompt");
  expect(screen).toContain("Todos 1/3 · ctrl+t to hide\n   ☒ Read the failing test\n   ◼ Fixing the parser\n   ☐ Run the tests\n>");
});

test("-p --output-format stream-json emits the list as the todo_write call; --continue brings it back (Ctrl-T prints it)", async () => {
  const home = tempDir();
  const work = tempDir();
  const standIn = repl.startStandIn([reply(toolUse("todo_write", { todos: PLAN })), reply(text("Planned."))]);
  const env = childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, CAT_CODE_MODEL: "claude-sonnet-5-5" });
  const child = Bun.spawn([...catCode(), "-p", "plan it", "--output-format", "stream-json"], { cwd: work, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  expect(code).toBe(0);
  const events = stdout.trim().split("\n").map((line) => JSON.parse(line));
  const call = events.find((event) => event.type === "assistant")?.message.content[0];
  expect(call).toMatchObject({ type: "tool_use", name: "todo_write", input: { todos: PLAN } });
  expect(events.some((event) => event.type === "user" && event.message.content[0].content.startsWith("Todos have been modified"))).toBe(true);

  const terminal = repl.track(new PtyTerminal());
  terminal.start([...catCode(), "--continue"], { cwd: work, env });
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.send("\u0014", "\u0014");
  const screen = await terminal.waitFor((s) => s.includes("☐ Run the tests") && s.endsWith(">"), "the restored list");
  expect(screen).toContain("Todos 1/3 · ctrl+t to hide\n   ☒ Read the failing test\n   ◼ Fixing the parser\n   ☐ Run the tests\n>");
});

test("a session compacted after its todo_write and resumed with --continue still has its list", async () => {
  const home = tempDir();
  const work = tempDir();
  const standIn = repl.startStandIn([reply(toolUse("todo_write", { todos: PLAN })), reply(text("Planned.")), reply(text("The summary."))]);
  const env = childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, CAT_CODE_MODEL: "claude-sonnet-5-5" });
  const first = repl.track(new PtyTerminal());
  first.start([...catCode()], { cwd: work, env });
  await first.waitFor((screen) => screen.endsWith(">"), "the prompt");
  first.type("plan it");
  await first.waitFor((screen) => screen.includes("Planned.") && screen.endsWith(">"), "the answer");
  first.type("/compact");
  await first.waitForText("Compacted the conversation into a summary");
  first.send("C-d", "C-d");
  await first.waitForText("Resume this session with");

  const terminal = repl.track(new PtyTerminal());
  terminal.start([...catCode(), "--continue"], { cwd: work, env });
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.send("\u0014", "\u0014");
  const screen = await terminal.waitFor((s) => s.includes("☐ Run the tests") && s.endsWith(">"), "the list after compaction and resume");
  expect(screen).toContain("Todos 1/3 · ctrl+t to hide\n   ☒ Read the failing test\n   ◼ Fixing the parser\n   ☐ Run the tests\n>");
});
