import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, startMessagesStandIn, text, thinking, toolUse, type MessagesStandIn, type Step } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { childEnv } from "../../helpers/cli-process.ts";
import { catCode } from "../../helpers/binary.ts";

let dir: string;
let home: string;
let standIn: MessagesStandIn | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cat-code-thinking-"));
  home = join(dir, "home");
  mkdirSync(home);
});
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function runCli(args: string[], steps: Step[], extraEnv: Record<string, string> = {}) {
  standIn = startMessagesStandIn(steps);
  const env = childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, ...extraEnv });
  const child = Bun.spawn([...catCode(), ...args], { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code };
}

test("--thinking sends a budget with max_tokens above it, and the thinking block stays in the history with its signature", async () => {
  writeFileSync(join(dir, "notes.txt"), "a note");
  const { stdout, code, stderr } = await runCli(
    ["-p", "read notes.txt", "--thinking", "--model", "claude-sonnet-4-5"],
    [reply(thinking("I should read the file.", "sig-1"), toolUse("read_file", { path: "notes.txt" })), reply(text("It says: a note"))],
  );
  expect({ code, stderr }).toMatchObject({ code: 0 });
  expect(stdout).toBe("It says: a note\n");
  const [first, second] = standIn!.requests;
  expect(first!.body.thinking).toEqual({ type: "enabled", budget_tokens: 8000 });
  expect(first!.body.max_tokens).toBe(24_000);
  const assistant = second!.body.messages[1]!;
  expect(assistant.role).toBe("assistant");
  expect(assistant.content[0]).toMatchObject({ type: "thinking", thinking: "I should read the file.", signature: "sig-1" });
  expect(second!.body.thinking).toEqual({ type: "enabled", budget_tokens: 8000 });
}, 30_000);

test("without --thinking or a setting no thinking is asked for", async () => {
  const { code } = await runCli(["-p", "hi"], [reply(text("hello"))]);
  expect(code).toBe(0);
  expect(standIn!.requests[0]!.body.thinking).toBeUndefined();
});

test("settings.json: model and thinking budget are used; --no-thinking turns thinking off; env fills unset variables only", async () => {
  const settings = { model: "claude-sonnet-4-5", thinking: { budgetTokens: 2048 }, env: { FROM_SETTINGS: "file", ALREADY_SET: "file" } };
  writeFileSync(join(home, "settings.json"), JSON.stringify(settings));
  const steps = [reply(toolUse("bash", { command: "echo $FROM_SETTINGS-$ALREADY_SET" })), reply(text("done")), reply(text("plain"))];
  const { code } = await runCli(["-p", "show the variables", "--allow-all"], steps.slice(0, 2), { ALREADY_SET: "shell" });
  expect(code).toBe(0);
  const [first, second] = standIn!.requests;
  expect(first!.body.model).toBe("claude-sonnet-4-5");
  expect(first!.body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
  const result = JSON.stringify(second!.body.messages.at(-1));
  expect(result).toContain("file-shell");
  await standIn!.stop();

  const off = await runCli(["-p", "hi", "--no-thinking"], steps.slice(2));
  expect(off.code).toBe(0);
  expect(standIn!.requests[0]!.body.thinking).toBeUndefined();
}, 30_000);

test("CAT_CODE_MODEL wins over settings' model; --model over both", async () => {
  writeFileSync(join(home, "settings.json"), JSON.stringify({ model: "claude-from-settings" }));
  expect((await runCli(["-p", "hi"], [reply(text("a"))], { CAT_CODE_MODEL: "claude-from-env" })).code).toBe(0);
  expect(standIn!.requests[0]!.body.model).toBe("claude-from-env");
  await standIn!.stop();
  expect((await runCli(["-p", "hi"], [reply(text("a"))])).code).toBe(0);
  expect(standIn!.requests[0]!.body.model).toBe("claude-from-settings");
});

test("a thinking budget the model cannot take is a one-line usage error, before anything is sent", async () => {
  writeFileSync(join(home, "settings.json"), JSON.stringify({ thinking: { budgetTokens: 500000 } }));
  const { code, stderr } = await runCli(["-p", "hi", "--model", "claude-sonnet-4-5"], []);
  expect(code).toBe(2);
  expect(stderr.trim().split("\n")).toHaveLength(1);
  expect(stderr).toContain("thinking: a thinking budget of 500000 tokens leaves no room for claude-sonnet-4-5's answer");
  expect(standIn!.requests).toHaveLength(0);
});

test("-p: a project's untrusted model and thinking are left out with a warning; the user's model is used", async () => {
  writeFileSync(join(home, "settings.json"), JSON.stringify({ model: "claude-sonnet-4-5" }));
  mkdirSync(join(dir, ".cat-code"));
  writeFileSync(join(dir, ".cat-code", "settings.json"), JSON.stringify({ model: "claude-opus-4-1", thinking: { budgetTokens: 20000 } }));
  const { code, stderr } = await runCli(["-p", "hi"], [reply(text("a"))]);
  expect(code).toBe(0);
  expect(stderr).toContain('model: "claude-opus-4-1", thinking: {"budgetTokens":20000} ignored, not yet trusted in this folder');
  expect(standIn!.requests[0]!.body.model).toBe("claude-sonnet-4-5");
  expect(standIn!.requests[0]!.body.thinking).toBeUndefined();
});
