import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, resultText, startMessagesStandIn, text, toolResultsOf, toolUse, type MessagesStandIn, type RecordedRequest } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { writeConfig } from "../../helpers/paths.ts";
import { BUN, childEnv, REPO } from "../../helpers/cli-process.ts";
import { catCode } from "../../helpers/binary.ts";

/**
 * Tool search end to end: `cat-code -p` with a real tracker server (the official SDK), the
 * Messages stand-in playing the model. It sees only cat-code's own tools, the search tool and the
 * names; it searches, gets the definition, calls the tool, and the call reaches the server.
 */
const TRACKER = join(REPO, "fixtures/sdk-tracker-server.ts");

let home: string;
let standIn: MessagesStandIn | undefined;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "cat-code-tool-search-"));
});
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
  await rm(home, { recursive: true, force: true });
});

const toolNames = (request: RecordedRequest) => (request.body.tools ?? []).map((tool) => tool.name);

/** What the API caches from the tools: every byte up to and including the first marked tool. */
function cachedToolPrefix(request: RecordedRequest): string {
  const tools = request.body.tools ?? [];
  return JSON.stringify(tools.slice(0, tools.findIndex((tool) => tool.cache_control) + 1));
}

test("the model sees only the search tool and the names, searches, loads create_issue and calls it; the cached prefix stays", async () => {
  const calls = join(home, "calls.jsonl");
  const config = writeConfig({ tracker: { command: BUN, args: [TRACKER, calls] } }, home);
  standIn = startMessagesStandIn(
    [
      reply(toolUse("tool_search", { query: "create issue" })),
      reply(toolUse("mcp__tracker__create_issue", { title: "Login fails on Safari" })),
      reply(text("Filed it.")),
    ],
    { apiKey: "sk-test" },
  );
  const env = childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, ENABLE_TOOL_SEARCH: "always" });
  const child = Bun.spawn([...catCode(), "-p", "file a bug: login fails on Safari", "--mcp-config", config, "--allowedTools", "mcp__tracker__create_issue"], {
    cwd: home,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect({ code, stderr }).toMatchObject({ code: 0 });
  expect(stdout).toBe("Filed it.\n");

  const [first, second, third] = standIn.requests;
  // First request: no server tool, the search tool last, the names in the system prompt.
  expect(toolNames(first!).some((name) => name.startsWith("mcp__"))).toBe(false);
  expect(toolNames(first!).at(-1)).toBe("tool_search");
  const system = JSON.stringify(first!.body.system);
  expect(system).toContain("tracker (mcp__tracker__…): create_issue list_issues close_issue add_comment");
  expect(JSON.stringify(first!.body.tools)).not.toContain("optional body");

  // The search answered with the definition, and the tool joined the end of the list.
  const found = resultText(toolResultsOf(second!)[0]);
  expect(found).toContain('"name":"mcp__tracker__create_issue"');
  expect(found).toContain('"title"');
  expect(toolNames(second!)).toEqual([...toolNames(first!), "mcp__tracker__create_issue"]);

  // The call reached the real server.
  expect(resultText(toolResultsOf(third!)[0])).toBe("created issue #1: Login fails on Safari");
  expect(existsSync(calls) && readFileSync(calls, "utf8").trim()).toBe(JSON.stringify({ tool: "create_issue", args: { title: "Login fails on Safari" } }));

  // Prompt caching: the bytes up to the stable tool mark, and the system prompt, are the same in every request.
  for (const later of [second!, third!]) {
    expect(cachedToolPrefix(later)).toBe(cachedToolPrefix(first!));
    expect(JSON.stringify(later.body.system)).toBe(system);
  }
}, 60_000);

test("a resumed session (-c) loads again the tools the search loaded and those it called, in that order, from its first request", async () => {
  const calls = join(home, "calls.jsonl");
  const config = writeConfig({ tracker: { command: BUN, args: [TRACKER, calls] } }, home);
  standIn = startMessagesStandIn(
    [
      reply(toolUse("tool_search", { query: "create issue" })),
      // Named without a search: loaded as it is called.
      reply(toolUse("mcp__tracker__close_issue", { number: 1 })),
      reply(text("Found the tool; closed #1.")),
      reply(text("Still here.")),
    ],
    { apiKey: "sk-test" },
  );
  const env = childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, ENABLE_TOOL_SEARCH: "always" });
  const run = async (...args: string[]) => {
    const child = Bun.spawn([...catCode(), "-p", ...args, "--mcp-config", config, "--allowedTools", "mcp__tracker__close_issue"], { cwd: home, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect({ code, stderr }).toMatchObject({ code: 0 });
    return stdout;
  };
  expect(await run("find the tool to file bugs, and close #1")).toBe("Found the tool; closed #1.\n");
  const loadedBefore = toolNames(standIn.requests[2]!);
  expect(loadedBefore.slice(-2)).toEqual(["mcp__tracker__create_issue", "mcp__tracker__close_issue"]);

  expect(await run("-c", "are you there?")).toBe("Still here.\n");
  const resumed = standIn.requests[3]!;
  // The same tools in the same order: the tools' cached prefix is as the session left it.
  expect(toolNames(resumed)).toEqual(loadedBefore);
  expect(resumed.body.messages.length).toBeGreaterThan(3);
}, 60_000);
