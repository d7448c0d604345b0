import { afterEach, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, REPO, tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { PtyTerminal } from "../../helpers/pty-terminal.ts";

/**
 * The REPL's elicitation prompt at a real terminal (a pseudo-terminal read through xterm.js), run by
 * a small script that prints the answer it would send as `RESULT <json>`.
 */
const SCRIPT = join(REPO, "test/pty/repl/elicitation-prompt-script.ts");
let terminal: PtyTerminal | undefined;
afterEach(() => {
  terminal?.kill();
  terminal = undefined;
});

/** The conformance suite's SEP-1034 form: a default for every type. */
const CONTACT = {
  message: "Please provide your contact information",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", description: "Your full name", default: "John Doe" },
      age: { type: "integer", title: "Age", minimum: 18, default: 30 },
      score: { type: "number", default: 95.5 },
      status: { type: "string", oneOf: [{ const: "on", title: "Active" }, { const: "off", title: "Inactive" }], default: "on" },
      tags: { type: "array", items: { enum: ["a", "b", "c"] }, default: ["a", "c"] },
      verified: { type: "boolean", default: true },
    },
    required: ["name"],
  },
};

function startPrompt(params: unknown, env: Record<string, string> = {}): PtyTerminal {
  const started = new PtyTerminal();
  started.start([BUN, SCRIPT, "github", JSON.stringify(params)], { cwd: tempDir(), env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } });
  return started;
}

async function resultOf(pty: PtyTerminal): Promise<unknown> {
  const screen = await pty.waitForText("[exit 0]");
  // A long result wraps at the terminal's width: the rows up to the exit line are one line of JSON.
  const result = /RESULT ([^]*?)\n*\[exit 0\]/.exec(screen);
  if (!result) throw new Error(`no result on the screen:\n${screen}`);
  return JSON.parse(result[1]!.replaceAll("\n", ""));
}

/** Presses Enter at each field, waiting for its question first, as a person would. */
async function enterThrough(pty: PtyTerminal, questions: string[]): Promise<void> {
  for (const question of questions) {
    await pty.waitFor((screen) => screen.trimEnd().split("\n").at(-1)!.startsWith(question), question);
    pty.type("");
  }
}

test("Enter at every field sends every default, after showing what will be sent", async () => {
  terminal = startPrompt(CONTACT);
  const screen = await terminal.waitForText("Name* (text) [John Doe]:");
  expect(screen).toContain("github asks: Please provide your contact information");
  expect(screen).toContain("  Your full name");
  await enterThrough(terminal, ["Name*", "Age (whole number, at least 18) [30]", "score (number) [95.5]", "status (1-2) [Active]", "tags (numbers 1-3 like 1,3) [a, c]", "verified (y/n) [yes]"]);
  const review = await terminal.waitForText("Send? [y]es / [e]dit / [n]o (decline) / Esc (cancel)");
  expect(review).toContain(["You are about to send to github:", '  Name: "John Doe"', "  Age: 30", "  score: 95.5", "  status: Active", "  tags: a, c", "  verified: yes"].join("\n"));
  terminal.type("y");
  await terminal.waitForText("(answered github)");
  expect(await resultOf(terminal)).toEqual({
    action: "accept",
    content: { name: "John Doe", age: 30, score: 95.5, status: "on", tags: ["a", "c"], verified: true },
  });
}, 30_000);

test("an invalid answer is asked again with the reason; edit changes an answer before sending", async () => {
  terminal = startPrompt(CONTACT);
  await enterThrough(terminal, ["Name*"]);
  await terminal.waitForText("Age (whole number, at least 18) [30]:");
  terminal.type("12");
  await terminal.waitForText("✗ must be at least 18");
  terminal.type("forty");
  await terminal.waitForText('✗ "forty" is not a number');
  terminal.type("42");
  await enterThrough(terminal, ["score", "status"]);
  await terminal.waitForText("tags (numbers 1-3 like 1,3) [a, c]:");
  terminal.type("2 3");
  await enterThrough(terminal, ["verified"]);
  await terminal.waitForText("Send?");
  terminal.type("e");
  // A second pass offers the answers given so far; only the name changes.
  await terminal.waitFor((screen) => screen.trimEnd().endsWith("Name* (text) [John Doe]:"), "the name asked again");
  terminal.type("Ada Lovelace");
  await enterThrough(terminal, ["Age (whole number, at least 18) [42]", "score", "status", "tags (numbers 1-3 like 1,3) [b, c]", "verified"]);
  await terminal.waitFor((screen) => screen.split("Send?").length === 3, "the second Send? question");
  terminal.type("yes");
  expect(await resultOf(terminal)).toEqual({
    action: "accept",
    content: { name: "Ada Lovelace", age: 42, score: 95.5, status: "on", tags: ["b", "c"], verified: true },
  });
}, 30_000);

test("n at Send? declines, and so does Ctrl-D at a field", async () => {
  terminal = startPrompt(CONTACT);
  await enterThrough(terminal, ["Name*", "Age", "score", "status", "tags", "verified"]);
  await terminal.waitForText("Send?");
  terminal.type("n");
  expect(await resultOf(terminal)).toEqual({ action: "decline" });
  terminal.kill();

  terminal = startPrompt(CONTACT);
  await terminal.waitForText("Name* (text) [John Doe]:");
  terminal.send("C-d");
  expect(await resultOf(terminal)).toEqual({ action: "decline" });
  expect(terminal.screen()).toContain("Name* (text) [John Doe]:\n(declined: github was told no)\nRESULT");
}, 30_000);

test("Esc in the middle of the form cancels, and so does Ctrl-C at Send?", async () => {
  terminal = startPrompt(CONTACT);
  await enterThrough(terminal, ["Name*"]);
  await terminal.waitForText("Age (whole number, at least 18) [30]:");
  terminal.send("4", "Escape");
  expect(await resultOf(terminal)).toEqual({ action: "cancel" });
  terminal.kill();

  terminal = startPrompt(CONTACT);
  await enterThrough(terminal, ["Name*", "Age", "score", "status", "tags", "verified"]);
  await terminal.waitForText("Send?");
  terminal.send("C-c");
  expect(await resultOf(terminal)).toEqual({ action: "cancel" });
}, 30_000);

test("what the server wrote cannot act on the terminal", async () => {
  terminal = startPrompt({
    message: "Hello\u001b[2J\u001b]0;owned\u0007 there\nsecond line",
    requestedSchema: { type: "object", properties: { "x\u001b[31m": { type: "string", title: "Ti\u001b[1Atle\u202e" } } },
  });
  const screen = await terminal.waitForText("Title (text):");
  expect(screen).toContain("github asks: Hello there\n  second line");
  expect(screen).not.toContain("owned");
}, 30_000);

/** A stand-in for the browser opener: it notes the link it was given. */
function fakeOpener(): { dir: string; opened: string } {
  const dir = tempDir();
  const opened = join(dir, "opened.txt");
  writeFileSync(join(dir, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
  chmodSync(join(dir, "xdg-open"), 0o755);
  return { dir, opened };
}

test("a link is shown whole with its host; no opens nothing and declines", async () => {
  const opener = fakeOpener();
  const url = "https://pay.example/checkout?session=abc&next=%2Fdone";
  terminal = startPrompt({ mode: "url", message: "Pay for the plan", url }, { PATH: `${opener.dir}:${process.env.PATH}` });
  const screen = await terminal.waitForText("Open it in your browser? [y]es / [n]o (decline) / Esc (cancel)");
  expect(screen).toContain(`github asks you to open a link: Pay for the plan\n  ${url}\n  It goes to pay.example.`);
  terminal.type("n");
  expect(await resultOf(terminal)).toEqual({ action: "decline" });
  expect(existsSync(opener.opened)).toBe(false);
}, 30_000);

test.skipIf(process.platform !== "linux")("yes opens the link through xdg-open, without a shell, and accepts", async () => {
  const opener = fakeOpener();
  const url = "https://pay.example/a?b=1&c=$(touch PWNED)";
  terminal = startPrompt({ mode: "url", message: "Pay", url }, { PATH: `${opener.dir}:${process.env.PATH}` });
  await terminal.waitForText("Open it in your browser?");
  terminal.type("y");
  expect(await resultOf(terminal)).toEqual({ action: "accept" });
  await waitFor(() => existsSync(opener.opened), "the opener to run");
  expect(readFileSync(opener.opened, "utf8")).toBe(new URL(url).href);
}, 30_000);

test("a link that pretends to go elsewhere is flagged; one that is not http(s) is declined unasked", async () => {
  terminal = startPrompt({ mode: "url", message: "Sign in", url: "https://accounts.google.com@xn--ggle-0nda.example/login" });
  const screen = await terminal.waitForText("Open it in your browser?");
  expect(screen).toContain("It goes to xn--ggle-0nda.example.");
  expect(screen).toContain("⚠ the host name has non-Latin letters (punycode xn--): it may imitate another name");
  expect(screen).toContain("⚠ the part before @ is not the site: the link goes to xn--ggle-0nda.example");
  terminal.send("Escape");
  expect(await resultOf(terminal)).toEqual({ action: "cancel" });
  terminal.kill();

  terminal = startPrompt({ mode: "url", message: "Run", url: "file:///etc/passwd" });
  const refused = await terminal.waitForText("[exit 0]");
  expect(refused).toContain("cat-code opens only http and https links, not file: ones: declined.");
  expect(refused).not.toContain("Open it in your browser?");
  expect(await resultOf(terminal)).toEqual({ action: "decline" });
}, 30_000);
