import { expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

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
