import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** Sessions inside the REPL: /clear starts a new one, /resume goes back, leaving says how to come back. */
const repl = replUnderTest();

test("/clear starts a new session; /resume lists the one before (titled by its own first prompt) and goes on with it", async () => {
  const home = repl.tempDir("cat-code-sessions-home-");
  const standIn = repl.startStandIn([reply(text("About apples.")), reply(text("About pears.")), reply(text("Apples again."))]);
  const terminal = repl.pty({ home });
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "the prompt");
  terminal.type("tell me about apples");
  await terminal.waitForText("About apples.");
  terminal.type("/clear");
  await terminal.waitForText("Started a new conversation.");
  terminal.type("tell me about pears");
  await terminal.waitForText("About pears.");
  // The second prompt went alone: /clear emptied the conversation.
  expect(standIn.requests[1]!.body.messages).toHaveLength(1);

  terminal.type("/resume");
  let screen = await terminal.waitForText("Resume which? [1-1, Enter: 1, q: none]");
  // The session being used is not offered; the one before /clear is, under its own first prompt.
  expect(screen).toMatch(/^ {2}1 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}2 msg {2}tell me about apples$/m);
  terminal.type("1");
  screen = await terminal.waitForText("⏺ About apples.");
  expect(screen).toMatch(/Resumed session [0-9a-f-]{36} \(2 messages\)\n> tell me about apples\n⏺ About apples\./);
  terminal.type("and more?");
  await terminal.waitForText("Apples again.");
  const sent = standIn.requests[2]!.body.messages;
  expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  expect(JSON.stringify(sent[0])).toContain("tell me about apples");

  // Leaving: the resumed session's id, which now holds pears' session as another one to resume.
  terminal.send("C-c");
  await terminal.waitForText("(Ctrl-C again to exit)");
  terminal.send("C-c");
  screen = await terminal.waitForText("[exit 0]");
  const id = /Resumed session ([0-9a-f-]{36})/.exec(screen)![1];
  expect(screen).toContain(`Resume this session with: cat-code --resume ${id}`);
});

test("a session with nothing said leaves without a resume line; /resume with no other session says so", async () => {
  repl.startStandIn([]);
  const terminal = repl.pty();
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "the prompt");
  terminal.type("/resume");
  await terminal.waitForText("No other session in this folder to resume");
  terminal.send("C-d", "C-d");
  const screen = await terminal.waitForText("[exit 0]");
  expect(screen).not.toContain("--resume");
});

test("Ctrl-R finds an earlier prompt as it is typed; Esc leaves the line as it was; Enter takes the one found", async () => {
  repl.startStandIn([]);
  const terminal = repl.pty();
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "the prompt");
  // Each typed at a waiting prompt: a line typed ahead while none waits is queued, not remembered.
  terminal.type("/cost");
  await terminal.waitFor((s) => s.endsWith("nothing has cost anything.\n>"), "the prompt after /cost");
  terminal.type("/tools");
  await terminal.waitFor((s) => s.endsWith("none\n>"), "the prompt after /tools");
  terminal.send("draft", "\u0012", "co");
  await terminal.waitFor((s) => s.split("\n").at(-1) === "(reverse-i-search)`co': /cost", "the search's line");
  terminal.send("Escape");
  await terminal.waitFor((s) => s.split("\n").at(-1) === "> draft", "the line as it was");
  terminal.send("C-c");
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "an empty line");
  terminal.send("\u0012", "to");
  await terminal.waitFor((s) => s.split("\n").at(-1) === "(reverse-i-search)`to': /tools", "the search's line");
  terminal.send("Enter");
  await terminal.waitFor((s) => s.split("\n").at(-1) === "> /tools", "the line found, on the prompt");
  terminal.send("C-c", "C-d", "C-d");
  await terminal.waitForText("[exit 0]");
});

test("/memory opens the chosen file in $EDITOR with the terminal in its normal mode, and takes the terminal back after", async () => {
  repl.startStandIn([]);
  const home = repl.tempDir("cat-code-memory-home-");
  const cwd = repl.tempDir("cat-code-memory-project-");
  const editor = join(home, "editor.sh");
  // The editor notes the terminal's mode (raw mode would show -icanon), then writes the file.
  writeFileSync(editor, `#!/bin/sh\nstty -a > "$1.stty" 2>&1\necho "- always run the linter" >> "$1"\n`);
  chmodSync(editor, 0o755);
  const terminal = repl.pty({ home, cwd, env: { EDITOR: editor } });
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "the prompt");
  terminal.type("/memory");
  await terminal.waitForText("Edit which? [1-2, Enter: none]");
  terminal.type("1");
  await terminal.waitForText("the memory is read again");
  const agents = join(cwd, "AGENTS.md");
  expect(readFileSync(agents, "utf8")).toBe("- always run the linter\n");
  expect(readFileSync(`${agents}.stty`, "utf8")).toMatch(/(^|\s)icanon/);
  // The prompt has its keys again: the file is now one of the memory files.
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "the prompt after the editor");
  terminal.type("/memory");
  await terminal.waitForText("Memory files (in the system prompt");
  terminal.send("Enter");
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "the prompt after no choice");
  terminal.send("C-d", "C-d");
  await terminal.waitForText("[exit 0]");
});

test("/memory without $VISUAL or $EDITOR says what to set", async () => {
  repl.startStandIn([]);
  const terminal = repl.pty();
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "the prompt");
  terminal.type("/memory");
  await terminal.waitForText("Edit which?");
  terminal.type("1");
  await terminal.waitForText("error: no editor is set: set $VISUAL or $EDITOR");
  terminal.send("C-d", "C-d");
  await terminal.waitForText("[exit 0]");
});

test("a live menu under the prompt while a command or an @ mention is typed: descriptions, Down and Tab to take one, Esc and Enter clear it", async () => {
  repl.startStandIn([]);
  const cwd = repl.tempDir("cat-code-menu-project-");
  writeFileSync(join(cwd, "alpha.txt"), "a");
  writeFileSync(join(cwd, "alps.md"), "b");
  mkdirSync(join(cwd, ".cat-code", "commands"), { recursive: true });
  writeFileSync(join(cwd, ".cat-code", "commands", "mend.md"), "---\ndescription: Mend the \u001b[31mbuild\n---\nFix it.");
  const terminal = repl.pty({ cwd });
  await terminal.waitFor((s) => s.split("\n").at(-1) === ">", "the prompt");
  terminal.send("/m");
  let screen = await terminal.waitFor((s) => s.includes("› /mcp") && s.includes("/model"), "the menu");
  const rows = screen.split("\n").slice(-5);
  expect(rows[0]).toBe("> /m");
  expect(rows[1]).toMatch(/^› \/mcp +Show the MCP servers/);
  expect(rows[2]).toMatch(/^ {2}\/memory +List the memory files/);
  expect(rows[3]).toMatch(/^ {2}\/model +Show the model/);
  // A project's description is shown sanitized: no escape sequence reaches the terminal.
  expect(rows[4]).toMatch(/^ {2}\/mend +Mend the build$/);
  terminal.send("e");
  await terminal.waitFor((s) => !s.includes("/mcp") && s.includes("› /memory"), "the menu narrowed");
  terminal.send("Down", "Tab");
  screen = await terminal.waitFor((s) => s.split("\n").some((row) => row === "> /mend"), "the chosen command on the line");
  terminal.send("Escape");
  await terminal.waitFor((s) => s.split("\n").at(-1) === "> /mend", "the menu closed");

  terminal.send("C-c", "read @al");
  screen = await terminal.waitFor((s) => s.includes("› @alpha.txt"), "the file menu");
  expect(screen.split("\n").slice(-3)).toEqual(["> read @al", "› @alpha.txt", "  @alps.md"]);
  terminal.send("Enter");
  await terminal.waitFor((s) => !s.includes("› @alpha.txt"), "the menu cleared on Enter");
  terminal.send("C-d", "C-d");
  await terminal.waitForText("[exit 0]");
});
