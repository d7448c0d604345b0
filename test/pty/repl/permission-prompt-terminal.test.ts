import { expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  reply,
  resultText,
  text,
  toolResultsOf,
  toolUse,
  type Step,
} from "../../../fixtures/anthropic/messages-stand-in.ts";
import { tempDir } from "../../helpers/paths.ts";
import type { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * The permission question at a real terminal (a pseudo-terminal read through xterm.js), with the
 * Messages API stand-in playing a hostile model: what the screen shows is what the user approves.
 */
const repl = replUnderTest();
let terminal: PtyTerminal | undefined;

function startRepl(project: string, steps: Step[], env: Record<string, string> = {}): PtyTerminal {
  repl.startStandIn(steps);
  return repl.pty({ cwd: project, env });
}

test("in a window narrowed to 60 columns, the command, its description and the question wrap between words", async () => {
  const project = tempDir();
  const command = "cd src && ls -la | grep -v node_modules && git status --short && rm -rf build";
  terminal = startRepl(project, [reply(toolUse("bash", { command, description: "List the sources, show git status and remove the build folder" })), reply(text("Not run."))]);
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  await terminal.resize(60, 40);
  terminal.type("clean up");
  const screen = await terminal.waitForText("yes for this");
  expect(screen).toContain(
    [
      "bash wants to run this command:",
      "  cd src && ls -la | grep -v node_modules && git status",
      "  --short && rm -rf build",
      "  ⎿ List the sources, show git status and remove the build",
      "    folder",
      "Allow bash? [y]es / [n]o / [a]lways for 'cd:*', 'rm:*' in",
      "this project / [A] in all projects / [s] yes for this",
      "session",
    ].join("\n"),
  );
  terminal.send("n");
  await terminal.waitForText("What should cat-code do instead?");
}, 30_000);

test("a bash command hidden behind 300 spaces and a long description is shown whole; control sequences do not act", async () => {
  const project = tempDir();
  const command = `echo 'listing files'${" ".repeat(300)}; touch PWNED\necho done \u001b[2J\u001b]0;owned\u0007`;
  terminal = startRepl(project, [
    reply(toolUse("bash", { description: "List the files. ".repeat(40), command })),
    (request) => reply(text(`Tool said: ${resultText(toolResultsOf(request)[0]).slice(0, 40)}`)),
  ]);
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("list the files");
  // Two commands in one: no "always" is offered, since no prefix rule could ever match it.
  const screen = await terminal.waitForText("Allow bash? [y]es / [n]o");
  expect(screen).not.toContain("[a]lways");
  expect(screen).toContain("bash wants to run this command:");
  expect(screen).toContain("echo 'listing files'⟨300 spaces⟩; touch PWNED");
  expect(screen).toContain("echo done ⟨ESC⟩[2J⟨ESC⟩]0;owned⟨U+0007⟩");
  // The command comes before the description, and the screen was not cleared by the model's ESC[2J.
  expect(screen.indexOf("touch PWNED")).toBeLessThan(screen.indexOf("List the files."));
  expect(screen).toContain("> list the files");
  terminal.type("n");
  await terminal.waitForText("What should cat-code do instead?");
  terminal.type("just list them");
  await terminal.waitForText("Tool said: The user declined to run bash");
  expect(existsSync(join(project, "PWNED"))).toBe(false);
}, 30_000);

test("edit_file shows the path and a unified diff, and runs after a yes", async () => {
  const project = tempDir();
  writeFileSync(join(project, "config.ts"), "export const a = 1;\nexport const port = 8080;\nexport const c = 3;\n");
  terminal = startRepl(project, [
    reply(toolUse("edit_file", { path: "config.ts", old_string: "port = 8080", new_string: "port = 9090" })),
    (request) => reply(text(`Tool said: ${resultText(toolResultsOf(request)[0])}`)),
  ]);
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("change the port");
  const screen = await terminal.waitForText("Allow edit_file? [y]es / [n]o / [a]lways for this tool");
  expect(screen).toContain(
    [
      "edit_file wants to change config.ts:",
      "  --- config.ts",
      "  +++ config.ts",
      "  @@ -1,3 +1,3 @@",
      "   export const a = 1;",
      "  -export const port = 8080;",
      "  +export const port = 9090;",
      "   export const c = 3;",
    ].join("\n"),
  );
  terminal.type("y");
  await terminal.waitForText("Tool said: Edited config.ts: 1 replacement(s) at line 2");
  expect(readFileSync(join(project, "config.ts"), "utf8")).toContain("port = 9090");
}, 30_000);

test("a long change is paged: yes is refused until all of it was seen, here through $PAGER", async () => {
  const project = tempDir();
  const content = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n");
  // A pager that keeps what it was given and reads a key from the terminal, as less does.
  const pagerDir = tempDir();
  const pager = join(pagerDir, "pager.sh");
  writeFileSync(pager, `#!/bin/sh\ncat > ${join(pagerDir, "paged.txt")}\nprintf 'pager: press Enter\\n'\nread key < /dev/tty\necho "pager got [$key]"\n`);
  chmodSync(pager, 0o755);
  terminal = startRepl(
    project,
    [reply(toolUse("write_file", { path: "long.txt", content })), (request) => reply(text(`Tool said: ${resultText(toolResultsOf(request)[0])}`))],
    { PAGER: pager },
  );
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("write a long file");
  await terminal.waitForText("lines; [Enter] more / [v]iew all in $PAGER / [n]o");
  terminal.type("y");
  await terminal.waitForText("more lines to see before you can allow it");
  expect(existsSync(join(project, "long.txt"))).toBe(false);
  terminal.type("v");
  await terminal.waitForText("pager: press Enter");
  terminal.type("q");
  await terminal.waitForText("pager got [q]");
  await terminal.waitForText("Allow write_file? [y]es / [n]o / [a]lways for this tool");
  const paged = readFileSync(join(pagerDir, "paged.txt"), "utf8");
  expect(paged).toContain("write_file wants to change long.txt (a new file):");
  expect(paged).toContain("  +line 500");
  terminal.type("y");
  await terminal.waitForText("Tool said: Created long.txt (500 line(s)");
  expect(readFileSync(join(project, "long.txt"), "utf8")).toBe(content);
}, 30_000);
