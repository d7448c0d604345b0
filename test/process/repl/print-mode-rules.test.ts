import { beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, resultText, text, toolResultsOf, toolUse, type MessagesStandIn, type Step } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { childEnv } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";
import { catCode } from "../../helpers/binary.ts";

/** settings.json's rules in print mode, where nobody is there to answer or to trust a project's rules. */
const repl = replUnderTest();
let home: string;
let project: string;
let standIn: MessagesStandIn | undefined;
beforeEach(() => {
  home = repl.tempDir("cat-code-rules-home-");
  project = repl.tempDir("cat-code-rules-project-");
  mkdirSync(join(project, ".cat-code"));
});

async function runPrint(args: string[], steps: Step[]) {
  standIn = repl.startStandIn(steps, { apiKey: "sk-test" });
  const env = childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url });
  const child = Bun.spawn([...catCode(), "-p", "go", ...args], { cwd: project, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code };
}

const answerWithResult = (request: Parameters<Extract<Step, (...args: never[]) => unknown>>[0]) => reply(text(`result: ${resultText(toolResultsOf(request)[0]).trim()}`));

test("the user's allow rule runs a command without --allow-all; a project's deny rule holds even with --allow-all", async () => {
  writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(echo:*)"] } }));
  writeFileSync(join(project, ".cat-code", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(touch:*)"] } }));
  let run = await runPrint([], [reply(toolUse("bash", { command: "echo allowed" })), answerWithResult]);
  expect(run.stdout).toBe("result: allowed\n[exit code: 0]\n");
  await standIn?.stop();

  run = await runPrint(["--allow-all"], [reply(toolUse("bash", { command: "echo x; touch PWNED" })), answerWithResult]);
  expect(run.stdout).toContain("result: Permission to use bash was denied by the rule Bash(touch:*)");
  expect(existsSync(join(project, "PWNED"))).toBe(false);
}, 30_000);

test("a project's untrusted allow rules are ignored with a warning; its env too; a corrupt user file is one warning", async () => {
  writeFileSync(join(home, "settings.json"), "{ not json");
  writeFileSync(join(project, ".cat-code", "settings.json"), JSON.stringify({ env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" }, permissions: { allow: ["Bash"] } }));
  const run = await runPrint([], [reply(toolUse("bash", { command: "touch PWNED" })), answerWithResult]);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("result: The user declined to run bash");
  expect(existsSync(join(project, "PWNED"))).toBe(false);
  expect(run.stderr).toContain(`${join(home, "settings.json")}: not valid JSON`);
  expect(run.stderr).toContain(`"env" is ignored in a project's settings`);
  expect(run.stderr).toContain("1 allow rule(s) ignored, not yet trusted in this folder (Bash); start cat-code here at a terminal to review them");
}, 30_000);

test("a saved Bash(timeout:*) allows nothing (with a warning) and `timeout 5 bash -c …` is declined; Bash(echo:*) allows `timeout 5 echo`", async () => {
  writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(timeout:*)", "Bash(echo:*)"] } }));
  let run = await runPrint([], [reply(toolUse("bash", { command: 'timeout 5 bash -c "touch PWNED"' })), answerWithResult]);
  expect(run.stdout).toContain("result: The user declined to run bash");
  expect(existsSync(join(project, "PWNED"))).toBe(false);
  expect(run.stderr).toContain(`"Bash(timeout:*)" names only timeout, which runs another command, so as an allow rule it allows nothing`);
  await standIn?.stop();

  run = await runPrint([], [reply(toolUse("bash", { command: "timeout 5 echo wrapped" })), answerWithResult]);
  expect(run.stdout).toBe("result: wrapped\n[exit code: 0]\n");
}, 30_000);

test("--allowedTools naming only a wrapper is a usage error that says what to write instead", async () => {
  const run = await runPrint(["--allowedTools", "Bash(sudo:*)"], [reply(text("never"))]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`--allowedTools: "Bash(sudo:*)" names only sudo, which runs another command`);
  expect(run.stderr).toContain("Bash(npm test:*) also allows `timeout 60 npm test`");
  expect(run.stderr).not.toContain("    at ");
}, 30_000);

test("a wrapper named by its path is that wrapper: a saved Bash(/bin/sh:*) allows nothing, and deny Bash(touch:*) holds behind /usr/bin/timeout", async () => {
  writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(/bin/sh:*)"] } }));
  let run = await runPrint([], [reply(toolUse("bash", { command: "/bin/sh -c 'touch PWNED'" })), answerWithResult]);
  expect(run.stdout).toContain("result: The user declined to run bash");
  expect(existsSync(join(project, "PWNED"))).toBe(false);
  expect(run.stderr).toContain(`"Bash(/bin/sh:*)" names only /bin/sh, which runs another command, so as an allow rule it allows nothing`);
  await standIn?.stop();

  writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { allow: ["Bash"], deny: ["Bash(touch:*)"] } }));
  run = await runPrint([], [reply(toolUse("bash", { command: "/usr/bin/timeout 5 touch PWNED" })), answerWithResult]);
  expect(run.stdout).toContain("result: Permission to use bash was denied by the rule Bash(touch:*)");
  expect(existsSync(join(project, "PWNED"))).toBe(false);
}, 30_000);
