import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, resultText, text, toolResultsOf, toolUse, type MessagesStandIn, type RecordedRequest, type Step } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { catCode } from "../../helpers/binary.ts";
import { childEnv } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** Print mode honours the permission mode: the flag, settings' defaultMode, and what nobody can accept. */
const repl = replUnderTest();

async function print(args: string[], steps: Step[], cwd: string, home = repl.tempDir("print-mode-home-")) {
  const standIn: MessagesStandIn = repl.startStandIn(steps, { apiKey: "sk-test" });
  const env = childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url });
  const child = Bun.spawn([...catCode(), "-p", ...args], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code, standIn };
}

const echoResult = (request: RecordedRequest) => reply(text(`got: ${resultText(toolResultsOf(request)[0])}`));

test("--permission-mode plan: write_file is refused with the plan-mode message; exit_plan_mode says nobody can accept; --allow-all does not lift it", async () => {
  const project = repl.tempDir("print-plan-");
  const { stdout, code, standIn } = await print(
    ["make notes", "--permission-mode", "plan", "--allow-all"],
    [reply(toolUse("write_file", { path: "notes.md", content: "x" })), reply(toolUse("exit_plan_mode", { plan: "1. notes" })), echoResult],
    project,
  );
  expect(code).toBe(0);
  expect(existsSync(join(project, "notes.md"))).toBe(false);
  expect(resultText(toolResultsOf(standIn.requests[1]!)[0])).toContain("Plan mode is on: write_file was NOT run");
  expect(stdout).toContain("got: Error: nobody here can accept a plan (print mode): plan mode stays on");
  expect(standIn.requests[0]!.body.tools!.map((tool) => tool.name)).toContain("exit_plan_mode");
});

test("acceptEdits from the user's settings lets an edit inside the project run in -p; a project's own acceptEdits is ignored with a warning", async () => {
  const project = repl.tempDir("print-edits-");
  const home = repl.tempDir("print-edits-home-");
  writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { defaultMode: "acceptEdits" } }));
  const ran = await print(["write it"], [reply(toolUse("write_file", { path: "a.txt", content: "yes" })), echoResult], project, home);
  expect(ran.stdout).toContain("got: Created a.txt");
  expect(readFileSync(join(project, "a.txt"), "utf8")).toBe("yes");

  const other = repl.tempDir("print-edits-project-");
  mkdirSync(join(other, ".cat-code"));
  writeFileSync(join(other, ".cat-code", "settings.json"), JSON.stringify({ permissions: { defaultMode: "acceptEdits" } }));
  const refused = await print(["write it"], [reply(toolUse("write_file", { path: "a.txt", content: "no" })), echoResult], other);
  expect(refused.stderr).toContain('"permissions.defaultMode": "acceptEdits" is ignored in a project\'s settings');
  expect(refused.stdout).toContain("got: The user declined to run write_file");
  expect(existsSync(join(other, "a.txt"))).toBe(false);
});

test("a read-only command runs in -p without --allow-all; a writing one is declined", async () => {
  const project = repl.tempDir("print-read-only-");
  writeFileSync(join(project, "seen.txt"), "x");
  const { stdout } = await print(
    ["look"],
    [reply(toolUse("bash", { command: "ls | wc -l" }, "t1"), toolUse("bash", { command: "touch made" }, "t2")), (request) => reply(text(toolResultsOf(request).map(resultText).join(" | ")))],
    project,
  );
  expect(stdout).toContain("1\n[exit code: 0] | The user declined to run bash");
  expect(existsSync(join(project, "made"))).toBe(false);
});

test("--permission-mode with a wrong name, or bypassPermissions, is a usage error naming what to use", async () => {
  for (const [mode, hint] of [["planning", "use default, acceptEdits, plan"], ["bypassPermissions", "use --allow-all"]] as const) {
    const { stderr, code, standIn } = await print(["hi", "--permission-mode", mode], [reply(text("never"))], repl.tempDir("print-bad-mode-"));
    expect(code).toBe(2);
    expect(stderr).toContain(`--permission-mode:`);
    expect(stderr).toContain(hint);
    expect(standIn.requests).toHaveLength(0);
  }
});
