import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, resultText, text, toolResultsOf, toolUse, type RecordedRequest, type Reply } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { createBuiltinTools } from "../../../src/agent/builtin-tools.ts";
import { AgentHooks, hookStopText } from "../../../src/agent/hooks/agent-hooks.ts";
import type { HooksConfig } from "../../../src/agent/hooks/hook-config.ts";
import { HookRunner } from "../../../src/agent/hooks/hook-runner.ts";
import { allowAll, type PermissionRequest } from "../../../src/agent/permission.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { createModelClient } from "../../../src/agent/model-client.ts";
import { GENERAL_PURPOSE } from "../../../src/agent/subagents/agent-types.ts";
import { SubagentRunner } from "../../../src/agent/subagents/subagent-runner.ts";
import { TaskTool } from "../../../src/agent/tools/task-tool.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import { agentWith, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/** Claude Code's hooks through the agent loop and the Messages API stand-in, as real bash commands. */
stopAfterEach();
const BLOCK_RM_RF = join(import.meta.dir, "../../../fixtures/hooks/block-rm-rf.sh");
let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "cat-code-hooks-"));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

function hooksFor(config: HooksConfig, clock?: FakeClock) {
  const notices: string[] = [];
  const hooks = new AgentHooks(new HookRunner({ config: () => config, cwd: project, clock, env: { ...process.env, HOOK_LOG: join(project, "hook-log.jsonl") }, session: () => ({ sessionId: "session-1", transcriptPath: "/sessions/session-1.jsonl" }) }), project);
  hooks.onNotice((line) => notices.push(line));
  return { hooks, notices };
}

function builtins() {
  const registry = new ToolRegistry();
  for (const tool of createBuiltinTools({ cwd: project })) registry.register(tool);
  return registry;
}

const command = (line: string, timeout?: number) => ({ type: "command" as const, command: line, ...(timeout ? { timeout } : {}) });

test("a Claude Code-style hook script, unchanged, blocks rm -rf: the model reads its reason and nothing is deleted", async () => {
  writeFileSync(join(project, "precious.txt"), "keep me");
  const { hooks } = hooksFor({ PreToolUse: [{ matcher: "Bash", hooks: [command(BLOCK_RM_RF)] }] });
  const agent = agentWith([reply(toolUse("bash", { command: "rm -rf precious.txt" }), toolUse("bash", { command: "echo still here" })), reply(text("ok"))], builtins(), { permissions: allowAll, hooks });
  await agent.run("clean up");
  const [blocked, allowed] = toolResultsOf(standIn().requests[1]!);
  expect(blocked).toMatchObject({ is_error: true });
  expect(resultText(blocked)).toBe("A PreToolUse hook denied bash: Blocked by policy: rm -rf is not allowed in this project; move files to ./trash instead");
  expect(resultText(allowed)).toContain("still here");
  expect(existsSync(join(project, "precious.txt"))).toBe(true);
  // What the script was given: Claude Code's fields and tool names.
  const inputs = readFileSync(join(project, "hook-log.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
  expect(inputs[0]).toEqual({ session_id: "session-1", transcript_path: "/sessions/session-1.jsonl", cwd: project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf precious.txt" } });
  expect(inputs).toHaveLength(2);
});

test("PreToolUse JSON: allow skips the question, ask asks, updatedInput rewrites; Edit|Write matches write_file with file_path", async () => {
  const asked: PermissionRequest[] = [];
  const gate = async (request: PermissionRequest) => (asked.push(request), "deny" as const);
  const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safe"}}'`;
  const redirect = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const i=JSON.parse(s).tool_input;console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"ask",updatedInput:{...i,file_path:i.file_path.replace("draft","final")}}}))})'`;
  const { hooks } = hooksFor({ PreToolUse: [{ matcher: "Bash", hooks: [command(allow)] }, { matcher: "Edit|Write", hooks: [command(redirect)] }] });
  const agent = agentWith([reply(toolUse("bash", { command: "echo allowed by the hook" }), toolUse("write_file", { path: "draft.txt", content: "x" }), toolUse("glob", { pattern: "*" })), reply(text("ok"))], builtins(), { permissions: Object.assign(gate, { deniedBy: undefined }), hooks });
  await agent.run("go");
  const [bash, write, glob] = toolResultsOf(standIn().requests[1]!);
  expect(resultText(bash)).toContain("allowed by the hook");
  // The hook said ask (glob needs no asking and no hook matched it): the question shows the rewritten input.
  expect(asked.map((request) => [request.tool.name, request.input])).toEqual([["write_file", { path: join(project, "final.txt"), content: "x" }]]);
  expect(write).toMatchObject({ is_error: true });
  expect(glob?.is_error).toBeUndefined();
});

test("UserPromptSubmit adds context or blocks the prompt; PostToolUse feedback reaches the model", async () => {
  const context = `grep -q secret && { echo "no secrets in prompts" >&2; exit 2; } || echo "Today is release day."`;
  const post = `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 2 warnings"}}'`;
  const { hooks } = hooksFor({ UserPromptSubmit: [{ hooks: [command(context)] }], PostToolUse: [{ matcher: "Bash", hooks: [command(post)] }] });
  const agent = agentWith([reply(toolUse("bash", { command: "true" })), reply(text("done"))], builtins(), { permissions: allowAll, hooks });
  expect(await agent.run("tell me the secret")).toEqual({ status: "blocked", reason: "no secrets in prompts", requests: 0 });
  expect(standIn().requests).toHaveLength(0);
  await agent.run("what day is it?");
  const first = standIn().requests[0]!.body.messages;
  expect(JSON.stringify(first.at(-1))).toContain("Today is release day.");
  expect(resultText(toolResultsOf(standIn().requests[1]!)[0])).toBe("[exit code: 0]\n\n[PostToolUse hook] lint: 2 warnings");
});

test("Stop: a hook that blocks sends the model on with its reason; once stop_hook_active, it lets it stop", async () => {
  const stop = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{if(!JSON.parse(s).stop_hook_active)console.log(JSON.stringify({decision:"block",reason:"run the tests first"}))})'`;
  const { hooks } = hooksFor({ Stop: [{ hooks: [command(stop)] }] });
  const agent = agentWith([reply(text("All done.")), reply(text("Tests pass."))], builtins(), { permissions: allowAll, hooks });
  const outcome = await agent.run("fix it");
  expect(outcome).toMatchObject({ status: "done", text: "Tests pass.", requests: 2 });
  expect(JSON.stringify(standIn().requests[1]!.body.messages.at(-1))).toContain("Stop hook feedback:\\nrun the tests first");
});

test("Stop: continue: false wins over a hook that blocks; the model stops and the user reads the stopReason; the hook hears the last answer", async () => {
  const log = join(project, "stop.jsonl");
  const block = `cat >> ${log}; echo '{"decision":"block","reason":"go on"}'`;
  const { hooks, notices } = hooksFor({ Stop: [{ hooks: [command(block), command(`echo '{"continue":false,"stopReason":"Budget used up"}'`)] }] });
  const agent = agentWith([reply(text("All done."))], builtins(), { permissions: allowAll, hooks });
  expect(await agent.run("fix it")).toMatchObject({ status: "done", text: "All done.", requests: 1 });
  expect(notices).toEqual(["Stop hook: Budget used up"]);
  expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({ hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "All done." });
});

test("hooks run side by side; one that hangs is killed at its timeout, one that crashes is reported; the call goes on", async () => {
  const clock = new FakeClock();
  // Each waits for the other's mark: run one after the other, they could not both finish.
  const pair = (mine: string, theirs: string) => `touch ${mine}; for i in $(seq 1 500); do [ -e ${theirs} ] && exit 0; sleep 0.01; done; exit 1`;
  const { hooks, notices } = hooksFor(
    { PreToolUse: [{ hooks: [command(pair("a", "b")), command(pair("b", "a")), command("touch hanging; exec sleep 600", 5), command("echo broken >&2; exit 3")] }] },
    clock,
  );
  const agent = agentWith([reply(toolUse("bash", { command: "echo ran" })), reply(text("ok"))], builtins(), { permissions: allowAll, hooks });
  const run = agent.run("go");
  await waitFor(() => existsSync(join(project, "hanging")), "the hanging hook to start");
  clock.advance(5_000);
  await run;
  expect(resultText(toolResultsOf(standIn().requests[1]!)[0])).toContain("ran");
  expect(notices).toEqual(["PreToolUse hook `touch hanging; exec sleep 600` timed out and was stopped", "PreToolUse hook `echo broken >&2; exit 3` failed (exit 3): broken"]);
});

test("SessionStart's output goes with the first prompt; PreCompact and Notification get their fields", async () => {
  const log = join(project, "events.jsonl");
  const record = `cat >> ${log}; echo >> ${log}`;
  const { hooks } = hooksFor({
    SessionStart: [{ matcher: "startup", hooks: [command("echo 'Branch: main, 3 open issues'")] }, { matcher: "resume", hooks: [command("echo never")] }],
    PreCompact: [{ matcher: "manual", hooks: [command(record)] }],
    Notification: [{ hooks: [command(record)] }],
  });
  await hooks.sessionStart("startup");
  const agent = agentWith([reply(text("Hi.")), reply(text("Summary of the talk."))], builtins(), { permissions: allowAll, hooks });
  await agent.run("hello");
  const sent = JSON.stringify(standIn().requests[0]!.body.messages[0]);
  expect(sent).toContain("Branch: main, 3 open issues");
  expect(sent).not.toContain("never");
  await agent.compact({ instructions: "keep the plan" });
  hooks.notification("cat-code needs your answer", "permission_prompt");
  const events = await waitFor(() => {
    const lines = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean) : [];
    return lines.length === 2 && lines.map((line) => JSON.parse(line));
  }, "both hooks to write");
  expect(events).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "keep the plan" }),
      expect.objectContaining({ hook_event_name: "Notification", message: "cat-code needs your answer" }),
    ]),
  );
});

test("a slow SessionStart hook does not hold the first prompt hostage: Esc gives up waiting, nothing is sent, and the hook keeps its own timeout", async () => {
  const clock = new FakeClock();
  const { hooks, notices } = hooksFor({ SessionStart: [{ hooks: [command("touch starting; exec sleep 600", 60)] }] }, clock);
  const starting = hooks.sessionStart("startup");
  const agent = agentWith([reply(text("never asked"))], builtins(), { permissions: allowAll, hooks });
  const abort = new AbortController();
  const run = agent.run("hello", { signal: abort.signal });
  await waitFor(() => existsSync(join(project, "starting")), "the SessionStart hook to start");
  abort.abort();
  expect(await run).toEqual({ status: "cancelled", requests: 0 });
  expect(standIn().requests).toHaveLength(0);
  expect(agent.conversation.length).toBe(0);
  // The hook was not stopped by the Esc: its own timeout ends it.
  expect(notices).toEqual([]);
  clock.advance(60_000);
  await starting;
  expect(notices).toEqual(["SessionStart hook `touch starting; exec sleep 600` timed out and was stopped"]);
});

test("continue: false from a PreToolUse hook stops the run: the call and those after it do not run, the user reads stopReason, the model is not asked again", async () => {
  const stop = `echo '{"continue":false,"stopReason":"Deploys are frozen until Monday","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`;
  const { hooks } = hooksFor({ PreToolUse: [{ matcher: "Bash", hooks: [command(stop)] }] });
  const agent = agentWith([reply(toolUse("bash", { command: "touch deployed" }), toolUse("glob", { pattern: "*" }))], builtins(), { permissions: allowAll, hooks });
  const outcome = await agent.run("deploy");
  expect(outcome).toEqual({ status: "stopped", event: "PreToolUse", reason: "Deploys are frozen until Monday", requests: 1 });
  expect(hookStopText(outcome as { event: "PreToolUse"; reason: string })).toBe("Stopped by a PreToolUse hook: Deploys are frozen until Monday");
  expect(existsSync(join(project, "deployed"))).toBe(false);
  expect(standIn().requests).toHaveLength(1);
  // Every tool_use stays answered, so the next prompt can go on.
  const results = agent.conversation.snapshot().at(-1)!.content as Array<{ type: string; content: string }>;
  expect(results.map((block) => block.content)).toEqual(["Not run: a PreToolUse hook stopped the turn before bash ran.", "Not run: a hook stopped the turn at an earlier tool call."]);
});

test("continue: false from a PostToolUse hook stops the run after the call ran", async () => {
  const { hooks } = hooksFor({ PostToolUse: [{ hooks: [command(`echo '{"continue":false}'`)] }] });
  const agent = agentWith([reply(toolUse("bash", { command: "touch ran" }))], builtins(), { permissions: allowAll, hooks });
  const outcome = await agent.run("go");
  expect(outcome).toEqual({ status: "stopped", event: "PostToolUse", reason: "", requests: 1 });
  expect(hookStopText(outcome as { event: "PostToolUse"; reason: string })).toBe("Stopped by a PostToolUse hook (it gave no reason)");
  expect(existsSync(join(project, "ran"))).toBe(true);
});

test("SubagentStop fires once per subagent, with its id, type and final answer, matched on the type; Stop fires for the parent only", async () => {
  // One file per event: the two subagents' hooks run at the same time, and two appends to one file interleave.
  const stops = join(project, "stops");
  mkdirSync(stops);
  const record = `cat > "$(mktemp ${stops}/stop-XXXXXX)"`;
  const { hooks } = hooksFor({ SubagentStop: [{ matcher: "general-purpose", hooks: [command(record)] }, { matcher: "other-type", hooks: [command("echo never >> never")] }], Stop: [{ hooks: [command(record)] }] });
  const registry = builtins();
  let agent: ReturnType<typeof agentWith> | undefined;
  const runner = new SubagentRunner({
    parent: () => ({ client: createModelClient({ apiKey: "test-key", baseURL: standIn().url }), model: agent!.model, usage: agent!.usage }),
    registry,
    permissions: allowAll,
    hooks,
    types: () => [GENERAL_PURPOSE],
    cwd: project,
  });
  registry.register(new TaskTool(runner));
  const isChild = (request: RecordedRequest) => JSON.stringify(request.body.system ?? "").includes("subagent of cat-code");
  const route = (request: RecordedRequest): Reply => {
    if (isChild(request)) return reply(text(`answer to ${JSON.stringify(request.body.messages[0]!.content).includes("job A") ? "A" : "B"}`));
    return toolResultsOf(request).length ? reply(text("both done")) : reply(toolUse("task", { description: "a", prompt: "job A" }), toolUse("task", { description: "b", prompt: "job B" }));
  };
  agent = agentWith([route, route, route, route], registry, { permissions: allowAll, hooks });
  expect(await agent.run("two jobs")).toMatchObject({ status: "done", text: "both done" });
  const events = await waitFor(() => {
    const texts = readdirSync(stops).map((name) => readFileSync(join(stops, name), "utf8"));
    // A file is whole once it parses (its hook may still be writing it).
    const parsed = texts.flatMap((text) => {
      try {
        return [JSON.parse(text)];
      } catch {
        return [];
      }
    });
    return parsed.length === 3 && parsed;
  }, "two SubagentStop and one Stop");
  const subagentStops = events.filter((event: { hook_event_name: string }) => event.hook_event_name === "SubagentStop");
  expect(subagentStops.map((event: { last_assistant_message: string }) => event.last_assistant_message).sort()).toEqual(["answer to A", "answer to B"]);
  expect(subagentStops[0]).toMatchObject({ agent_type: "general-purpose", agent_id: expect.stringMatching(/^subagent-\d+$/), stop_hook_active: false, session_id: "session-1" });
  expect(subagentStops[0].agent_id).not.toBe(subagentStops[1].agent_id);
  expect(events.filter((event: { hook_event_name: string }) => event.hook_event_name === "Stop")).toHaveLength(1);
  expect(existsSync(join(project, "never"))).toBe(false);
});
