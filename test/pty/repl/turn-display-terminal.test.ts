import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { apiError, hang, reply, text, toolUse, type Step } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { tempDir } from "../../helpers/paths.ts";
import type { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * What a turn shows at a real terminal (a pseudo-terminal read through xterm.js): the status line
 * while the model works, the tool's line when it starts, the answer rendered as Markdown.
 */
const repl = replUnderTest();
let terminal: PtyTerminal | undefined;

const SPINNER_LINE = /^ [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (.*) · (\d+) s/m;

async function startRepl(steps: Step[], env: Record<string, string> = {}, project = tempDir()): Promise<PtyTerminal> {
  repl.startStandIn(steps);
  const started = repl.pty({ cwd: project, env });
  await started.waitFor((screen) => screen.endsWith(">"), "the prompt");
  return started;
}

/** The screen's lines that are a status line. */
function statusLines(screen: string): string[] {
  return screen.split("\n").filter((line) => SPINNER_LINE.test(line));
}

test("while the model has not answered, a spinner says so and counts the seconds; it is gone once the turn ends", async () => {
  terminal = await startRepl([hang(""), reply(text("All done."))]);
  terminal.type("take your time");
  let screen = await terminal.waitFor((s) => SPINNER_LINE.exec(s)?.[1] === "thinking", "the status line saying thinking");
  expect(statusLines(screen)).toHaveLength(1);
  // The spinner turns and the seconds go up while nothing else happens.
  const first = SPINNER_LINE.exec(screen)![0];
  screen = await terminal.waitFor((s) => Number(SPINNER_LINE.exec(s)?.[2]) >= 1, "a second counted");
  expect(SPINNER_LINE.exec(screen)![0]).not.toBe(first);
  terminal.send("C-c");
  screen = await terminal.waitForText("⎿ Cancelled.");
  expect(statusLines(screen)).toEqual([]);

  terminal.type("again");
  screen = await terminal.waitFor((s) => s.includes("All done.") && s.endsWith(">"), "the answer and the prompt");
  expect(statusLines(screen)).toEqual([]);
  expect(screen).toContain("> again\nAll done.\n>");
});

test("a resize in the middle of a turn leaves one status line, redrawn to the new width, and the lines above intact", async () => {
  terminal = await startRepl([hang("")]);
  terminal.type("a question that is long enough to see how the window takes it");
  await terminal.waitFor((s) => SPINNER_LINE.test(s), "the status line");
  // Narrower than the status line: it must be cut, not wrapped onto a second row.
  await terminal.resize(12, 40);
  let screen = await terminal.waitFor((s) => s.split("\n").at(-1)!.endsWith("…"), "the status line cut to 12 columns");
  expect(Bun.stringWidth(screen.split("\n").at(-1)!)).toBeLessThanOrEqual(12);
  // Above it, no row left over from the wider line (` · 3 s` wrapped onto a row of its own).
  const above = screen.split("\n").slice(0, -1).join("\n");
  expect(above).not.toMatch(/thinking|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]| s$/m);
  await terminal.resize(100, 40);
  screen = await terminal.waitFor((s) => statusLines(s).length === 1 && !statusLines(s)[0]!.endsWith("…"), "the status line whole again");
  const lines = screen.split("\n");
  // Nothing left of the narrow line, nor of the wide one before it: one status line, the last.
  expect(lines.filter((line) => line.includes("thinking"))).toHaveLength(1);
  expect(lines.at(-1)).toMatch(SPINNER_LINE);
  expect(screen).toContain("a question that is long enough");
  terminal.send("C-c");
  screen = await terminal.waitForText("⎿ Cancelled.");
  expect(statusLines(screen)).toEqual([]);
});

test("the tool's line appears when it starts, with the status line naming it, and gets its result when it ends", async () => {
  const project = tempDir();
  const gate = join(project, "go");
  terminal = await startRepl(
    [reply(toolUse("bash", { command: `while [ ! -f '${gate}' ]; do sleep 0.05; done; echo finished` })), reply(text("The command finished."))],
    {},
    project,
  );
  terminal.type("run it");
  await terminal.waitForText("Allow bash?");
  terminal.type("y");
  let screen = await terminal.waitFor((s) => SPINNER_LINE.exec(s)?.[1] === "running bash", "the status line naming the tool");
  expect(screen).toMatch(/^⏺ bash\(while .*finished\)$/m);
  expect(existsSync(gate)).toBe(false);
  writeFileSync(gate, "");
  screen = await terminal.waitFor((s) => s.includes("The command finished.") && s.endsWith(">"), "the answer");
  // The start line, completed in place: the result (two lines, with the exit code) under it.
  expect(screen).toMatch(/^⏺ bash\(while .*finished\) →\n {4}finished\n {4}\[exit code: 0\]\nThe command finished\.$/m);
  expect(screen.match(/^⏺ bash/gm)).toHaveLength(1);
  expect(statusLines(screen)).toEqual([]);
});

const MARKDOWN_ANSWER = "## Results\n\nThe **build** passed.\n\n| test | time |\n|---|---|\n| unit | 2 s |\n\n```ts\nconst ok = true;\n```\n\n- first\n- second\n";

test("the answer is rendered as Markdown at a terminal: no markup left, a table with its frame", async () => {
  terminal = await startRepl([reply(text(MARKDOWN_ANSWER))]);
  terminal.type("report");
  const screen = await terminal.waitFor((s) => s.includes("second") && s.endsWith(">"), "the answer");
  const answer = screen.slice(screen.indexOf("> report"));
  expect(answer).toContain("The build passed.");
  expect(answer).not.toContain("**");
  expect(answer).not.toContain("```");
  expect(answer).toMatch(/┌─+┬─+┐/);
  expect(answer).toMatch(/│ unit │ 2 s +│/);
  expect(answer).toContain("const ok = true;");
});

test("with NO_COLOR the answer is plain text at a terminal too", async () => {
  terminal = await startRepl([reply(text(MARKDOWN_ANSWER))], { NO_COLOR: "1" });
  terminal.type("report");
  const screen = await terminal.waitFor((s) => s.includes("- second") && s.endsWith(">"), "the answer");
  expect(screen).toContain("The **build** passed.");
  expect(screen).toContain("| unit | 2 s |");
});

test("an answer that breaks midway and is retried shows each finished block once; the wait counts down on the status line", async () => {
  const answer = "First paragraph.\n\nSecond paragraph.\n\nThird paragraph.\n";
  terminal = await startRepl([
    { kind: "stream-error", text: "First paragraph.\n\nSecond paragraph.\n\nThird pa", type: "overloaded_error", message: "Overloaded" },
    apiError(529, "overloaded_error", "Overloaded", { "retry-after": "3" }),
    reply(text(answer)),
  ]);
  terminal.type("write three paragraphs");
  let screen = await terminal.waitFor((s) => / retrying in [23] s · /.test(s), "the retry's countdown on the status line");
  expect(screen).toContain("First paragraph.");
  screen = await terminal.waitFor((s) => s.includes("Third paragraph.") && s.endsWith(">"), "the whole answer");
  expect(screen.split("First paragraph.").length).toBe(2);
  expect(screen.split("Second paragraph.").length).toBe(2);
  expect(screen).not.toContain("Third pa\n");
  expect(screen).toMatch(/⎿ .*overloaded.*retrying in/i);
  expect(statusLines(screen)).toEqual([]);
}, 30_000);
