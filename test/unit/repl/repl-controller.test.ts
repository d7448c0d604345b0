/**
 * The REPL controller's handlers, one per kind of input, driven in this process with piped streams
 * and no servers: Ctrl-C (at the prompt, and while a `!` command runs), Esc, a prompt without an
 * API key, a server's question while nothing runs. The `!` commands are real bash processes.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { MISSING_CREDENTIALS_MESSAGE } from "../../../src/agent/agent-error.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { EXIT_CONFIRM_MS } from "../../../src/repl/exit-confirmation.ts";
import { ReplController } from "../../../src/repl/repl-controller.ts";
import { IDLE_PROMPT_MS } from "../../../src/repl/waiting-notice.ts";
import { reply, startMessagesStandIn, text } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { VERSION } from "../../../src/version.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import { tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

const saved = { home: process.env.CAT_CODE_HOME, key: process.env.ANTHROPIC_API_KEY, token: process.env.ANTHROPIC_AUTH_TOKEN };
beforeEach(() => {
  process.env.CAT_CODE_HOME = tempDir();
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.ANTHROPIC_AUTH_TOKEN;
});
afterEach(() => {
  for (const [name, value] of [["CAT_CODE_HOME", saved.home], ["ANTHROPIC_API_KEY", saved.key], ["ANTHROPIC_AUTH_TOKEN", saved.token]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function startRepl(columns?: number) {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { columns });
  let shown = "";
  output.on("data", (chunk) => (shown += chunk.toString()));
  const clock = new FakeClock();
  const cwd = tempDir();
  const controller = new ReplController({ model: "claude-test", cwd, pool: new ServerPool([]), allowAll: false, input, output, clock });
  const exit = controller.run();
  return { controller, input, clock, cwd, exit, shown: () => shown, prompted: () => waitFor(() => controller.reader.waiting, () => `the prompt; output so far:\n${shown}`) };
}

test("Ctrl-C at an empty prompt asks first; a second within 2 s leaves; one later asks again", async () => {
  const repl = startRepl();
  await repl.prompted();
  repl.controller.onInterrupt();
  expect(repl.shown()).toContain("(Ctrl-C again to exit)");
  repl.clock.advance(EXIT_CONFIRM_MS + 1);
  repl.controller.onInterrupt();
  expect(repl.shown().split("(Ctrl-C again to exit)").length).toBe(3);
  repl.clock.advance(EXIT_CONFIRM_MS);
  repl.controller.onInterrupt();
  expect(await repl.exit).toBe(0);
});

test("the banner wraps between words in a narrow window, never cutting a word", async () => {
  const repl = startRepl(40);
  await repl.prompted();
  const banner = repl.shown().split("\n").slice(0, 2);
  expect(banner).toEqual([`cat-code ${VERSION} · claude-test · /help`, "for commands, Ctrl-D twice to exit"]);
  repl.input.end();
  expect(await repl.exit).toBe(0);
});

test("a line typed between two Ctrl-C makes the next one a first press", async () => {
  const repl = startRepl();
  await repl.prompted();
  repl.controller.onInterrupt();
  repl.input.write("/help\n");
  await waitFor(() => repl.shown().includes("/exit"), "the help text");
  await repl.prompted();
  repl.controller.onInterrupt();
  expect(repl.shown().split("(Ctrl-C again to exit)").length).toBe(3);
  repl.input.end();
  expect(await repl.exit).toBe(0);
});

for (const key of ["Ctrl-C", "Esc"] as const) {
  test(`${key} while a ! command runs ends it, and the prompt takes the next line`, async () => {
    const repl = startRepl();
    await repl.prompted();
    const started = join(repl.cwd, "started");
    repl.input.write(`!touch started; sleep 30\n`);
    await waitFor(() => existsSync(started), "the command to start");
    if (key === "Ctrl-C") repl.controller.onInterrupt();
    else repl.controller.onEscape();
    await waitFor(() => repl.shown().includes("⎿ cancelled"), () => `the cancelled line; output so far:\n${repl.shown()}`);
    // Nothing runs now: a Ctrl-C at the empty prompt is a first press, not a cancel.
    await repl.prompted();
    repl.controller.onInterrupt();
    expect(repl.shown()).toContain("(Ctrl-C again to exit)");
    repl.input.write("/exit\n");
    expect(await repl.exit).toBe(0);
  });
}

test("a prompt without an API key is one error line, and the REPL goes on", async () => {
  const repl = startRepl();
  repl.input.write("hello there\n/exit\n");
  expect(await repl.exit).toBe(0);
  expect(repl.shown()).toContain(`error: ${MISSING_CREDENTIALS_MESSAGE}`);
  expect(repl.shown()).toContain("ANTHROPIC_API_KEY is not set");
});

test("a server's question while nothing runs is declined, and the note waits for the next prompt", async () => {
  const repl = startRepl();
  await repl.prompted();
  const answer = await repl.controller.onElicitation({ server: "files", mode: "url", message: "sign in", url: "https://example.test/secret-code" });
  expect(answer).toEqual({ action: "decline" });
  expect(repl.shown()).not.toContain("files asked you to open a link");
  repl.input.write("\n/exit\n");
  expect(await repl.exit).toBe(0);
  expect(repl.shown()).toContain("files asked you to open a link on https://example.test");
  expect(repl.shown()).toContain("it came while no prompt was running");
  expect(repl.shown()).not.toContain("secret-code");
});

test("after an answer, a prompt idle for a minute tells the Notification hooks once (idle_prompt); before any answer, never", async () => {
  const standIn = startMessagesStandIn([reply(text("Hello."))]);
  process.env.ANTHROPIC_API_KEY = "sk-test";
  const baseUrl = process.env.ANTHROPIC_BASE_URL;
  process.env.ANTHROPIC_BASE_URL = standIn.url;
  try {
    const repl = startRepl();
    const heard: Array<[string, string]> = [];
    repl.controller.runtime.hooks.notification = (message, type) => void heard.push([message, type]);
    await repl.prompted();
    repl.clock.advance(IDLE_PROMPT_MS * 2);
    expect(heard).toEqual([]);
    repl.input.write("hi\n");
    await waitFor(() => repl.shown().includes("Hello.") && repl.controller.reader.waiting, "the answer and the prompt");
    repl.clock.advance(IDLE_PROMPT_MS - 1);
    expect(heard).toEqual([]);
    repl.clock.advance(1);
    repl.clock.advance(IDLE_PROMPT_MS * 2);
    expect(heard).toEqual([["cat-code is waiting for your input", "idle_prompt"]]);
    repl.input.write("/exit\n");
    expect(await repl.exit).toBe(0);
  } finally {
    if (baseUrl === undefined) delete process.env.ANTHROPIC_BASE_URL;
    else process.env.ANTHROPIC_BASE_URL = baseUrl;
    await standIn.stop();
  }
});
