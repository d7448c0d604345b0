import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, resultText, text, toolResultsOf, toolUse, type Step } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { tempDir } from "../../helpers/paths.ts";
import type { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * Saved permission rules at a real terminal: `a` and `A` at the question, /permissions, and the
 * trust a project's own allow rules need, against the Messages API stand-in.
 */
const repl = replUnderTest();
let terminal: PtyTerminal | undefined;

/** The first call in a test starts the stand-in with `steps`; later ones (a second REPL) use the same. */
function startRepl(project: string, home: string, steps: Step[]): PtyTerminal {
  if (!repl.standIn) repl.startStandIn(steps);
  return repl.pty({ cwd: project, home });
}

const said = (label: string) => (request: Parameters<Extract<Step, (...args: never[]) => unknown>>[0]) =>
  reply(text(`${label}: ${resultText(toolResultsOf(request)[0]).trim()}`));
const count = (screen: string, needle: string) => screen.split(needle).length - 1;
const atPrompt = (pty: PtyTerminal) => pty.waitFor((screen) => screen.endsWith(">"), "the prompt");

test("a saves the command's prefix to the project's settings (comments kept), the next such call is not asked; /permissions lists and removes it", async () => {
  const project = tempDir();
  const home = tempDir();
  mkdirSync(join(project, ".cat-code"));
  const settingsFile = join(project, ".cat-code", "settings.json");
  writeFileSync(settingsFile, '{\n  // chosen by hand\n  "markdown": true,\n}\n');
  terminal = startRepl(project, home, [
    reply(toolUse("bash", { command: "printf 'one\\n'" })),
    said("first"),
    reply(toolUse("bash", { command: "printf 'one two\\n'" })),
    said("second"),
    reply(toolUse("bash", { command: "printf 'one three\\n'" })),
    said("third"),
  ]);
  await atPrompt(terminal);
  terminal.type("run it");
  await terminal.waitForText("Allow bash? [y]es / [n]o / [a]lways for 'printf:*' in this project / [A] in all projects");
  terminal.type("a");
  await terminal.waitForText(`Saved Bash(printf:*) to ${settingsFile}`);
  await terminal.waitForText("first: one");
  const saved = readFileSync(settingsFile, "utf8");
  expect(saved).toContain("// chosen by hand");
  expect(saved).toContain('"markdown": true');
  expect(saved).toContain('"Bash(printf:*)"');

  terminal.type("again");
  let screen = await terminal.waitForText("second: one two");
  expect(count(screen, "Allow bash?")).toBe(1);

  terminal.type("/permissions");
  screen = await terminal.waitForText("/permissions remove <rule> removes one.");
  expect(screen).toMatch(new RegExp(`allow  Bash\\(printf:\\*\\)  ${settingsFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  terminal.type("/permissions remove Bash(printf:*)");
  await terminal.waitForText(`Removed Bash(printf:*) from ${settingsFile}`);
  expect(readFileSync(settingsFile, "utf8")).not.toContain("Bash(printf:*)");
  expect(readFileSync(settingsFile, "utf8")).toContain("// chosen by hand");

  // Removed: the next such call is asked about again.
  terminal.type("once more");
  await terminal.waitFor((s) => count(s, "Allow bash?") === 2, "a second question");
  terminal.type("y");
  await terminal.waitForText("third: one three");
}, 60_000);

test("A saves the rule to the user's settings.json (0600), and a new session in another folder is not asked", async () => {
  const home = tempDir();
  terminal = startRepl(tempDir(), home, [reply(toolUse("write_file", { path: "a.txt", content: "a" })), said("first"), reply(toolUse("write_file", { path: "b.txt", content: "b" })), said("second")]);
  await atPrompt(terminal);
  terminal.type("write a");
  await terminal.waitForText("Allow write_file? [y]es / [n]o / [a]lways for this tool in this project / [A] in all projects");
  terminal.type("A");
  const userFile = join(home, "settings.json");
  await terminal.waitForText(`Saved Write to ${userFile}`);
  await terminal.waitForText("first: Created a.txt");
  expect(JSON.parse(readFileSync(userFile, "utf8"))).toEqual({ permissions: { allow: ["Write"] } });
  expect(statSync(userFile).mode & 0o777).toBe(0o600);
  terminal.kill();

  const other = tempDir();
  terminal = startRepl(other, home, []);
  await atPrompt(terminal);
  terminal.type("write b");
  await terminal.waitForText("second: Created b.txt");
  expect(terminal.screen()).not.toContain("Allow write_file?");
  expect(existsSync(join(other, "b.txt"))).toBe(true);
}, 60_000);

test("a no stops the turn and asks what to do instead: the answer reaches the model with the decline; Esc sends nothing", async () => {
  const project = tempDir();
  terminal = startRepl(project, tempDir(), [
    reply(toolUse("write_file", { path: "x.txt", content: "x" })),
    (request) => reply(text(`instead: ${JSON.stringify(request.body.messages.at(-1)?.content)}`)),
    reply(toolUse("write_file", { path: "y.txt", content: "y" })),
    (request) => reply(text(`next: ${JSON.stringify(request.body.messages.at(-1)?.content).length} chars`)),
  ]);
  await atPrompt(terminal);
  terminal.type("write x");
  await terminal.waitForText("Allow write_file?");
  terminal.type("n");
  await terminal.waitForText("What should cat-code do instead?");
  // The turn ended at the no: nothing more went to the model.
  expect(repl.standIn!.requests).toHaveLength(1);
  terminal.type("write it to y.txt");
  await terminal.waitForText("instead: ");
  const sent = repl.standIn!.requests[1]!.body.messages.at(-1)!;
  expect(sent.role).toBe("user");
  const blocks = sent.content as { type: string; text?: string; content?: string; is_error?: boolean }[];
  expect(blocks.map((b) => b.type)).toEqual(["tool_result", "text"]);
  expect(blocks[0]).toMatchObject({ is_error: true });
  expect(blocks[0]!.content).toContain("The user declined to run write_file and stopped the turn");
  expect(blocks[1]!.text).toBe("write it to y.txt");
  expect(existsSync(join(project, "x.txt"))).toBe(false);

  terminal.type("write y");
  await terminal.waitFor((s) => count(s, "Allow write_file?") === 2, "the second question");
  terminal.type("n");
  await terminal.waitFor((s) => count(s, "What should cat-code do instead?") === 2, "the second instead question");
  terminal.send("Escape");
  await atPrompt(terminal);
  expect(repl.standIn!.requests).toHaveLength(3);
  // Back at the prompt, what is typed next still follows the declined call.
  terminal.type("ok, skip it");
  await terminal.waitForText("next: ");
  expect((repl.standIn!.requests[3]!.body.messages.at(-1)!.content as { type: string }[]).map((b) => b.type)).toEqual(["tool_result", "text"]);
}, 60_000);

test("a project's allow rules wait for the user's trust, asked once at start; trusted, they hold, and are not asked about again", async () => {
  const project = tempDir();
  const home = tempDir();
  mkdirSync(join(project, ".cat-code"));
  writeFileSync(join(project, ".cat-code", "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(echo hi:*)"] } }));
  terminal = startRepl(project, home, [reply(toolUse("bash", { command: "echo hi there" })), said("ran")]);
  const screen = await terminal.waitForText("Trust these rules in this folder? [y]es / [n]o, never / [l]ater");
  expect(screen).toContain(`${join(project, ".cat-code", "settings.json")} wants to allow these without asking:\n  Bash(echo hi:*)`);
  terminal.type("y");
  await atPrompt(terminal);
  terminal.type("say hi");
  await terminal.waitForText("ran: hi there");
  expect(terminal.screen()).not.toContain("Allow bash?");
  terminal.kill();

  terminal = startRepl(project, home, []);
  await atPrompt(terminal);
  terminal.type("/permissions");
  const listed = await terminal.waitForText("/permissions remove <rule> removes one.");
  expect(listed).toContain("allow  Bash(echo hi:*)");
  expect(listed).not.toContain("Trust these rules");
  expect(listed).not.toContain("not trusted");
}, 60_000);

test("a project's allow rules answered later are ignored, and the call is asked about", async () => {
  const project = tempDir();
  mkdirSync(join(project, ".cat-code"));
  writeFileSync(join(project, ".cat-code", "settings.json"), JSON.stringify({ permissions: { allow: ["Bash"] } }));
  terminal = startRepl(project, tempDir(), [reply(toolUse("bash", { command: "touch PWNED" })), reply(toolUse("bash", { command: "touch PWNED" })), said("ran")]);
  await terminal.waitForText("Trust these rules in this folder?");
  terminal.type("l");
  await atPrompt(terminal);
  terminal.type("go");
  await terminal.waitForText("Allow bash?");
  expect(existsSync(join(project, "PWNED"))).toBe(false);
  terminal.type("n");
  await terminal.waitForText("What should cat-code do instead?");
  await atPrompt(terminal);
  terminal.type("/permissions");
  const listed = await terminal.waitForText("/permissions remove <rule> removes one.");
  expect(listed).toContain("allow  Bash  ");
  expect(listed).toContain("allow  Bash  " + join(project, ".cat-code", "settings.json") + "  (not trusted here yet: ignored)");
  terminal.type("/permissions trust");
  await terminal.waitForText("Trusted in this folder: Bash");
  terminal.type("go on");
  await terminal.waitForText("ran: ");
  expect(existsSync(join(project, "PWNED"))).toBe(true);
}, 60_000);
