import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** Esc Esc at an empty prompt: the list of the session's prompts, and a choice that restores files. */
const repl = replUnderTest();

test("Esc Esc on an empty prompt lists the prompts under a header saying bash changes are not tracked; files only restores the files; the conversation gives the prompt back on the line", async () => {
  const cwd = repl.tempDir("cat-code-rewind-pty-");
  writeFileSync(join(cwd, "kept.txt"), "original\n");
  repl.startStandIn([
    reply(toolUse("write_file", { path: "created.txt", content: "new\n" }), toolUse("edit_file", { path: "kept.txt", old_string: "original", new_string: "changed" })),
    reply(text("Both done.")),
  ]);
  const terminal = repl.pty({ cwd, mcpConfig: false, args: ["--allow-all"] });
  await terminal.waitForText("Ctrl-D twice to exit");
  terminal.type("change the files");
  await terminal.waitForText("Both done.");
  await terminal.waitFor((screen) => screen.split("\n").at(-1) === ">", "the prompt");

  // Text on the line: Esc Esc is not the rewind then.
  terminal.send("x", "Escape", "Escape");
  await terminal.waitFor((screen) => screen.split("\n").at(-1) === "> x", "the typed x");
  terminal.send("\u007f");
  await terminal.waitFor((screen) => screen.split("\n").at(-1) === ">", "the empty prompt");
  expect(terminal.screen()).not.toContain("Rewind to before");

  terminal.send("Escape", "Escape");
  const screen = await terminal.waitForText("Rewind to before which prompt? [1-1, Enter: none]");
  expect(screen).toContain("> /rewind\n");
  expect(screen).toContain("changes made by bash commands are not.");
  expect(screen).toMatch(/\n {2}1 {2}\d\d:\d\d {2}2 file\(s\) {2}change the files\n/);
  terminal.type("1");
  await terminal.waitForText("3) files only [1-3, Enter: none]");
  terminal.type("3");
  await terminal.waitForText("Removed 1 file(s) the session had created: created.txt");
  expect(terminal.screen()).toContain("Restored 1 file(s): kept.txt");
  expect(terminal.screen()).not.toContain("The conversation is back");
  expect([existsSync(join(cwd, "created.txt")), readFileSync(join(cwd, "kept.txt"), "utf8")]).toEqual([false, "original\n"]);

  // The conversation too: the prompt comes back on the line, to edit and send again.
  await terminal.waitFor((shown) => shown.split("\n").at(-1) === ">", "the prompt after the rewind");
  terminal.send("Escape", "Escape");
  await terminal.waitForText("Rewind to before which prompt? [1-1, Enter: none]");
  terminal.type("1");
  await terminal.waitForText("2) conversation only");
  terminal.type("2");
  await terminal.waitForText("The conversation is back to before: change the files (0 message(s) kept).");
  await terminal.waitFor((shown) => shown.split("\n").at(-1) === "> change the files", "the rewound prompt on the line");
  terminal.send("\u0015", "C-d", "C-d");
  await terminal.waitForText("[exit 0]");
}, 60_000);
