import { expect, test } from "bun:test";
import { join } from "node:path";
import { withRules, type PermissionRules } from "../../../src/agent/permission-rules.ts";
import type { PermissionDecision, PermissionRequest } from "../../../src/agent/permission.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { parseServerEntry } from "../../../src/mcp/config/load-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { ListMcpResourcesTool, ReadMcpResourceTool } from "../../../src/mcp/tools/resource-tools.ts";
import { reply, resultText, text, toolResultsOf, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { BUN, REPO, tempDir } from "../../helpers/paths.ts";
import { agentWith, current, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";

/**
 * A resource read the model chooses is an MCP call: its URI is the model's text, sent to the server.
 * Through the agent loop and the rules gate, against a real server: it asks unless a rule allows it.
 */
const PICTURE_SERVER = join(REPO, "fixtures/picture-server.ts");

stopAfterEach();

async function loopWith(rules: PermissionRules, answer: PermissionDecision, calls: ReturnType<typeof toolUse>[]) {
  const pool = (current.pool = new ServerPool([parseServerEntry("pic", { command: BUN, args: [PICTURE_SERVER] }, "flag", "test", {})]));
  await pool.connectAll();
  const registry = new ToolRegistry();
  const servers = () => pool.serversOffering("resources");
  registry.register(new ListMcpResourcesTool(servers));
  registry.register(new ReadMcpResourceTool(servers));
  const asked: PermissionRequest[] = [];
  const gate = withRules(() => rules, async (request) => (asked.push(request), answer), tempDir());
  const agent = agentWith([reply(...calls), reply(text("ok"))], registry, { permissions: gate });
  await agent.run("look at the resources");
  return { asked, results: toolResultsOf(standIn().requests[1]!).map(resultText) };
}

test("the model's read asks, showing server and URI whole; listing does not; declined, nothing is read", async () => {
  // What a prompt-injected model would send: a secret in a URI far longer than any line.
  const uri = `pic://logo.png?leak=${"S3CRET".repeat(2_000)}`;
  const { asked, results } = await loopWith({ allow: [], deny: [] }, "deny", [
    toolUse("list_mcp_resources", {}, "l1"),
    toolUse("read_mcp_resource", { server: "pic", uri }, "r1"),
  ]);
  expect(asked.map((request) => [request.tool.name, request.preview])).toEqual([["read_mcp_resource", { kind: "arguments", input: { server: "pic", uri } }]]);
  expect(results[0]).toContain("pic: 4 resource(s)");
  expect(results[1]).toContain("The user declined to run read_mcp_resource");
}, 30_000);

test.each([["mcp__pic"], ["mcp__pic__*"], ["read_mcp_resource(pic)"], ["read_mcp_resource"]])("the allow rule %s lets the read run unasked", async (rule) => {
  const { asked, results } = await loopWith({ allow: [rule], deny: [] }, "deny", [toolUse("read_mcp_resource", { server: "pic", uri: "pic://logo.png" })]);
  expect(asked).toEqual([]);
  expect(results[0]).toContain("[image pic:pic://logo.png 20×20 png]");
}, 30_000);

test("a rule for another server's reads or one of pic's tools does not cover it; a deny rule for pic refuses it unasked", async () => {
  const other = await loopWith({ allow: ["read_mcp_resource(everything)", "mcp__pic__some_tool", "mcp__everything"], deny: [] }, "deny", [
    toolUse("read_mcp_resource", { server: "pic", uri: "pic://logo.png" }),
  ]);
  expect(other.asked.map((request) => request.tool.name)).toEqual(["read_mcp_resource"]);
  await current.standIn?.stop();
  await current.pool?.closeAll();
  const denied = await loopWith({ allow: ["read_mcp_resource"], deny: ["mcp__pic"] }, "allow", [toolUse("read_mcp_resource", { server: "pic", uri: "pic://logo.png" })]);
  expect(denied.asked).toEqual([]);
  expect(denied.results[0]).toContain("denied by the rule mcp__pic");
}, 30_000);
