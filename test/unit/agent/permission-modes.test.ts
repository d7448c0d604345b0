import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBuiltinTools } from "../../../src/agent/builtin-tools.ts";
import { parsePermissionMode, PermissionModeState, type PermissionMode } from "../../../src/agent/permission-mode.ts";
import { decidePermission, withPolicy, type PermissionContext } from "../../../src/agent/permission-policy.ts";
import type { PermissionRules } from "../../../src/agent/permission-rules.ts";
import type { Tool } from "../../../src/agent/tool.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { ExitPlanModeTool, type PlanAnswer } from "../../../src/agent/tools/exit-plan-mode-tool.ts";
import { reply, resultText, text, toolResultsOf, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { agentWith, fakeTool, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";

stopAfterEach();

const project = mkdtempSync(join(tmpdir(), "modes-"));
const outside = mkdtempSync(join(tmpdir(), "modes-outside-"));
mkdirSync(join(project, "src"));
mkdirSync(join(project, ".git"));
writeFileSync(join(project, "src", "a.ts"), "a");
symlinkSync(join(project, ".git"), join(project, "docs"));
symlinkSync(outside, join(project, "out"));
afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const tools = new Map(createBuiltinTools({ cwd: project }).map((tool) => [tool.name, tool]));
const builtin = (name: string) => tools.get(name) as Tool;
const mcpTool = (readOnly: boolean): Tool => ({ ...fakeTool("mcp__s__t", { readOnly }).tool, needsPermission: async () => true });

function context(mode: PermissionMode, rules: PermissionRules = { allow: [], deny: [] }): PermissionContext {
  return { rules: () => rules, mode: () => mode, cwd: project };
}

async function verdict(mode: PermissionMode, tool: Tool, input: Record<string, unknown>, rules?: PermissionRules): Promise<string> {
  const result = await decidePermission(context(mode, rules), tool, input);
  return result.decision === "allow" ? `allow: ${result.why}` : result.decision;
}

describe("decidePermission, the one decision before anyone is asked", () => {
  test("default: read-only commands run; anything else asks; reads inside the project need no question", async () => {
    expect(await verdict("default", builtin("bash"), { command: "git status && ls src" })).toBe("allow: read-only command");
    expect(await verdict("default", builtin("bash"), { command: "rm -rf src" })).toBe("ask");
    expect(await verdict("default", builtin("bash"), { command: "cat /etc/hostname" })).toBe("ask");
    expect(await verdict("default", builtin("write_file"), { path: "src/b.ts", content: "" })).toBe("ask");
    expect(await verdict("default", builtin("read_file"), { path: "src/a.ts" })).toBe("allow: no permission needed");
  });

  test("an ask rule asks even where the read-only list, an allow rule or accept-edits would let the call run", async () => {
    const rules = { allow: ["Bash(git log:*)", "Write"], deny: [], ask: ["Bash(git log:*)", "Edit(src/**)"] };
    expect(await verdict("default", builtin("bash"), { command: "git log" }, rules)).toBe("ask");
    expect(await verdict("default", builtin("bash"), { command: "ls && git log -1" }, rules)).toBe("ask");
    expect(await verdict("acceptEdits", builtin("write_file"), { path: "src/b.ts", content: "" }, rules)).toBe("ask");
    expect(await verdict("default", builtin("bash"), { command: "git status" }, rules)).toBe("allow: read-only command");
  });

  test("deny wins over everything, in every mode", async () => {
    const rules = { allow: ["Bash"], deny: ["Bash(ls:*)"], ask: [] };
    for (const mode of ["default", "acceptEdits", "plan"] as const) expect(await verdict(mode, builtin("bash"), { command: "ls" }, rules)).toBe("refuse");
  });

  test("acceptEdits: file edits inside the project run unasked; outside it, in .git/.cat-code/.claude (also through a symlink) they ask; commands still ask", async () => {
    expect(await verdict("acceptEdits", builtin("write_file"), { path: "src/b.ts", content: "" })).toBe("allow: accept edits");
    expect(await verdict("acceptEdits", builtin("edit_file"), { path: join(project, "src/a.ts"), old_string: "a", new_string: "b" })).toBe("allow: accept edits");
    expect(await verdict("acceptEdits", builtin("write_file"), { path: "../x.ts", content: "" })).toBe("ask");
    expect(await verdict("acceptEdits", builtin("write_file"), { path: "out/x.ts", content: "" })).toBe("ask");
    expect(await verdict("acceptEdits", builtin("write_file"), { path: ".git/hooks/pre-commit", content: "" })).toBe("ask");
    expect(await verdict("acceptEdits", builtin("write_file"), { path: "docs/hooks/pre-commit", content: "" })).toBe("ask");
    expect(await verdict("acceptEdits", builtin("write_file"), { path: ".cat-code/settings.json", content: "" })).toBe("ask");
    expect(await verdict("acceptEdits", builtin("write_file"), { path: ".mcp.json", content: "" })).toBe("ask");
    expect(await verdict("acceptEdits", builtin("bash"), { command: "touch x" })).toBe("ask");
    expect(await verdict("default", builtin("write_file"), { path: "src/b.ts", content: "" })).toBe("ask");
  });

  test("plan: only reads; writes, edits, non-read-only commands (even allowed ones) and non-read-only MCP tools are refused", async () => {
    const rules = { allow: ["Bash(npm test:*)", "Write"], deny: [], ask: [] };
    expect(await verdict("plan", builtin("write_file"), { path: "src/b.ts", content: "" }, rules)).toBe("refuse");
    expect(await verdict("plan", builtin("edit_file"), { path: "src/a.ts", old_string: "a", new_string: "b" })).toBe("refuse");
    expect(await verdict("plan", builtin("bash"), { command: "npm test" }, rules)).toBe("refuse");
    expect(await verdict("plan", builtin("bash"), { command: "ls; touch x" })).toBe("refuse");
    expect(await verdict("plan", mcpTool(false), {})).toBe("refuse");
    // Reads go on as they would: unasked inside the project, asked outside it.
    expect(await verdict("plan", builtin("bash"), { command: "git diff" })).toBe("allow: read-only command");
    expect(await verdict("plan", builtin("bash"), { command: "cat /etc/hostname" })).toBe("ask");
    expect(await verdict("plan", builtin("grep"), { pattern: "a" })).toBe("allow: no permission needed");
    // The plan and the todo list are the model's own notes: they run in plan mode.
    const todos = { todos: [{ content: "Read the code", activeForm: "Reading the code", status: "in_progress" }] };
    expect(await verdict("plan", builtin("todo_write"), todos)).toBe("allow: no permission needed");
  });

  test("plan: a server's tool is refused even when it says it is read-only (readOnlyHint is the server's word)", async () => {
    const hinted: Tool = { ...mcpTool(true), origin: { server: "s", namePrefix: "mcp__s__" } };
    for (const tool of [mcpTool(true), hinted]) {
      const result = await decidePermission(context("plan"), tool, {});
      expect(result).toMatchObject({ decision: "refuse", result: { isError: true, content: expect.stringContaining("Plan mode is on: mcp__s__t was NOT run") } });
    }
    // Outside plan mode it is asked about as before.
    expect(await verdict("default", mcpTool(true), {})).toBe("ask");
  });
});

describe("the tool runner under the policy", () => {
  test("plan mode: a write_file is not run and the model reads why; the user is not asked", async () => {
    const registry = new ToolRegistry();
    registry.register(builtin("write_file"));
    const asked: string[] = [];
    const agent = agentWith([reply(toolUse("write_file", { path: "src/planned.ts", content: "x" })), reply(text("ok, planning"))], registry, {
      permissions: withPolicy(context("plan"), async ({ tool }) => (asked.push(tool.name), "allow")),
    });
    expect((await agent.run("change it")).status).toBe("done");
    expect(asked).toEqual([]);
    expect(() => readFileSync(join(project, "src", "planned.ts"))).toThrow();
    const result = resultText(toolResultsOf(standIn().requests[1]!)[0]);
    expect(result).toContain("Plan mode is on: write_file was NOT run");
    expect(result).toContain("exit_plan_mode");
  });

  test("default mode: a read-only command runs without the question, another asks", async () => {
    const registry = new ToolRegistry();
    registry.register(builtin("bash"));
    const asked: string[] = [];
    const agent = agentWith([reply(toolUse("bash", { command: "ls src" }, "t1"), toolUse("bash", { command: "touch made" }, "t2")), reply(text("done"))], registry, {
      permissions: withPolicy(context("default"), async ({ input }) => (asked.push(String(input.command)), "deny")),
    });
    await agent.run("look");
    expect(asked).toEqual(["touch made"]);
    const results = toolResultsOf(standIn().requests[1]!).map(resultText);
    expect(results[0]).toContain("a.ts");
    expect(results[1]).toContain("declined");
  });
});

describe("exit_plan_mode and the mode itself", () => {
  test("accepted, plan mode ends in the mode the user chose; kept, the model reads the feedback and plan mode stays", async () => {
    const mode = new PermissionModeState("plan");
    const answers: PlanAnswer[] = [{ accepted: false, feedback: "also update the README" }, { accepted: true, mode: "acceptEdits" }];
    const plans: string[] = [];
    const tool = new ExitPlanModeTool(mode, async (plan) => (plans.push(plan), answers.shift() ?? null));
    const kept = await tool.execute({ plan: "1. edit a.ts" });
    expect(kept.content).toContain("keep planning");
    expect(kept.content).toContain("also update the README");
    expect(mode.mode).toBe("plan");
    const accepted = await tool.execute({ plan: "1. edit a.ts\n2. README" });
    expect(accepted.content).toContain("accepted your plan");
    expect(mode.mode).toBe("acceptEdits");
    expect(plans).toEqual(["1. edit a.ts", "1. edit a.ts\n2. README"]);
  });

  test("without a review (print mode) or an answer, plan mode stays on; outside plan mode there is nothing to accept", async () => {
    const mode = new PermissionModeState("plan");
    expect((await new ExitPlanModeTool(mode).execute({ plan: "p" })).content).toContain("plan mode stays on");
    expect((await new ExitPlanModeTool(mode, async () => null).execute({ plan: "p" })).content).toContain("did not answer");
    expect(mode.mode).toBe("plan");
    expect((await new ExitPlanModeTool(new PermissionModeState("default"), async () => ({ accepted: true, mode: "default" })).execute({ plan: "p" })).content).toContain("not on");
    expect((await new ExitPlanModeTool(mode).execute({})).isError).toBe(true);
  });

  test("Shift+Tab's order: default, acceptEdits, plan, and round; listeners hear each change once", () => {
    const mode = new PermissionModeState();
    const heard: string[] = [];
    const stop = mode.onChange((m) => heard.push(m));
    expect([mode.cycle(), mode.cycle(), mode.cycle()]).toEqual(["acceptEdits", "plan", "default"]);
    mode.set("default");
    stop();
    mode.cycle();
    expect(heard).toEqual(["acceptEdits", "plan", "default"]);
  });

  test("mode names are Claude Code's; bypassPermissions is refused with what to use instead", () => {
    expect(parsePermissionMode("acceptEdits")).toEqual({ ok: true, mode: "acceptEdits" });
    expect(parsePermissionMode("bypassPermissions")).toMatchObject({ ok: false, error: expect.stringContaining("--allow-all") });
    expect(parsePermissionMode("planning")).toMatchObject({ ok: false, error: expect.stringContaining("default, acceptEdits, plan") });
  });
});

test("a compound command runs when every part is read-only or allowed by a rule ('always' saves one rule per part)", async () => {
  const rules = { allow: ["Bash(npm test:*)", "Bash(git push:*)"], deny: [], ask: [] };
  expect(await verdict("default", builtin("bash"), { command: "ls && npm test && git push origin main | cat" }, rules)).toBe("allow: allow rule");
  expect(await verdict("default", builtin("bash"), { command: "ls && npm test && rm -rf x" }, rules)).toBe("ask");
  expect(await verdict("default", builtin("bash"), { command: "cat /etc/passwd && npm test" }, rules)).toBe("ask");
});

test("a Read deny or ask rule holds for read-only commands too: a guarded path, or any glob, is asked about", async () => {
  const rules = { allow: [], deny: ["Read(.env)"], ask: [] };
  expect(await verdict("default", builtin("bash"), { command: "cat .env" }, rules)).toBe("ask");
  expect(await verdict("default", builtin("bash"), { command: "cat src/../.env" }, rules)).toBe("ask");
  expect(await verdict("default", builtin("bash"), { command: "cat *" }, rules)).toBe("ask");
  expect(await verdict("default", builtin("bash"), { command: "cat src/a.ts" }, rules)).toBe("allow: read-only command");
  expect(await verdict("default", builtin("bash"), { command: "cat src/*" })).toBe("allow: read-only command");
  // `out` is a symlink out of the project: a glob that may expand to it asks.
  expect(await verdict("default", builtin("bash"), { command: "cat *" })).toBe("ask");
  expect(await verdict("default", builtin("bash"), { command: "head .env" }, { allow: [], deny: [], ask: ["Read"] })).toBe("ask");
});
