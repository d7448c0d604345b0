import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/** Hooks at a real terminal: a PreToolUse hook's deny as the user sees it (no question asked), and /hooks. */
const repl = replUnderTest();
const BLOCK_RM_RF = join(import.meta.dir, "../../../fixtures/hooks/block-rm-rf.sh");

test("a PreToolUse hook denies rm -rf before any question: the tool line says why; /hooks lists it", async () => {
  const home = repl.tempDir();
  const project = repl.tempDir();
  mkdirSync(join(project, "build"));
  writeFileSync(join(home, "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: BLOCK_RM_RF, timeout: 30 }] }] } }));
  repl.startStandIn([reply(toolUse("bash", { command: "rm -rf build" })), reply(text("I will not delete it."))]);
  const terminal = repl.pty({ home, cwd: project });
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("clean the build");
  const screen = await terminal.waitFor((s) => s.includes("I will not delete it.") && s.endsWith(">"), "the answer after the denied call");
  expect(screen).toContain("⏺ bash(rm -rf build) →\n    A PreToolUse hook denied bash: Blocked by policy: rm -rf is not allowed in this project;");
  expect(screen).not.toContain("Allow bash?");
  expect(existsSync(join(project, "build"))).toBe(true);

  terminal.type("/hooks");
  const listed = await terminal.waitForText("PreToolUse  Bash  30 s");
  expect(listed).toContain(`PreToolUse  Bash  30 s  ${BLOCK_RM_RF}`);
});

test("a Notification hook hears which tool waits for permission; a PreToolUse hook's continue: false stops the turn and the user reads its stopReason", async () => {
  const home = repl.tempDir();
  const project = repl.tempDir();
  const log = join(project, "notifications.jsonl");
  const freeze = `echo '{"continue":false,"stopReason":"Writes are frozen during the release"}'`;
  writeFileSync(join(home, "settings.json"), JSON.stringify({ hooks: { Notification: [{ matcher: "permission_prompt", hooks: [{ type: "command", command: `cat >> ${log}` }] }], PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: freeze }] }] } }));
  repl.startStandIn([reply(toolUse("bash", { command: "touch made-by-bash" })), reply(toolUse("write_file", { path: "notes.txt", content: "x" })), reply(text("never sent"))]);
  const terminal = repl.pty({ home, cwd: project });
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("make files");
  await terminal.waitForText("Allow bash?");
  const heard = await waitFor(() => existsSync(log) && readFileSync(log, "utf8").trim(), "the Notification hook to write");
  expect(JSON.parse(heard)).toMatchObject({ hook_event_name: "Notification", message: "cat-code needs your permission to use Bash", notification_type: "permission_prompt" });
  terminal.type("y");
  const screen = await terminal.waitFor((s) => s.includes("⎿ Stopped by a PreToolUse hook: Writes are frozen during the release") && s.endsWith(">"), "the stopped turn");
  expect(screen).not.toContain("never sent");
  expect(existsSync(join(project, "made-by-bash"))).toBe(true);
  expect(existsSync(join(project, "notes.txt"))).toBe(false);
});
