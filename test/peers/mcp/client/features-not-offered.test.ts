/**
 * A server that declares no `resources`, `prompts` or `completions` capability is never asked for
 * them: `@modelcontextprotocol/server-filesystem` (tools only), over stdio, with what went over the
 * wire recorded. Each method rejects with `McpError.notOffered` naming the server and the capability.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode, type JsonRpcMessage } from "../../../../src/mcp/protocol.ts";
import { StdioTransport } from "../../../../src/mcp/transport/stdio-transport.ts";
import { REPO, tempDir } from "../../../helpers/paths.ts";

const FILESYSTEM_SERVER = join(REPO, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

/** The real stdio transport, keeping the method of every message it writes. */
class RecordingTransport extends StdioTransport {
  readonly methods: string[] = [];
  override send(message: JsonRpcMessage): Promise<void> {
    if ("method" in message) this.methods.push(message.method);
    return super.send(message);
  }
}

describe("server-filesystem: tools only", () => {
  let transport: RecordingTransport;
  let client: McpClient;

  beforeAll(async () => {
    transport = new RecordingTransport({ command: "node", args: [FILESYSTEM_SERVER, tempDir()], env: process.env as Record<string, string> });
    client = new McpClient(transport, { name: "fs", timeoutMs: 15_000 });
    await client.connect();
  });
  afterAll(() => client?.close());

  test("offers none of resources, subscriptions, prompts, completions", () => {
    expect(client.serverCapabilities?.tools).toBeDefined();
    for (const feature of ["resources", "resourceSubscriptions", "prompts", "completions"] as const) expect(client.offers(feature)).toBe(false);
  });

  test("every method rejects with kind not-offered, naming the server and the capability, and nothing is sent", async () => {
    const before = transport.methods.length;
    const attempts: Array<[Promise<unknown>, string]> = [
      [client.listResources(), "MCP server 'fs' does not offer resources (it declares no 'resources' capability)"],
      [client.listResourceTemplates(), "does not offer resources"],
      [client.readResource("file:///etc/passwd"), "does not offer resources"],
      [client.subscribeResource("file:///x"), "MCP server 'fs' does not offer resource subscriptions (it declares no 'resources.subscribe' capability)"],
      [client.unsubscribeResource("file:///x"), "does not offer resource subscriptions"],
      [client.listPrompts(), "MCP server 'fs' does not offer prompts (it declares no 'prompts' capability)"],
      [client.getPrompt("p", {}), "does not offer prompts"],
      [client.complete({ type: "ref/prompt", name: "p" }, { name: "a", value: "" }), "MCP server 'fs' does not offer completions (it declares no 'completions' capability)"],
    ];
    for (const [attempt, message] of attempts) {
      const error = await attempt.then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).message).toContain(message);
      expect((error as McpError).kind).toBe("not-offered");
      expect((error as McpError).code).toBe(ErrorCode.MethodNotFound);
    }
    // A positive sign the wire is live and in order: a request that is sent goes through after them.
    expect((await client.listTools()).length).toBeGreaterThan(0);
    await client.connection.request("ping", {});
    expect(transport.methods.slice(before)).toEqual(["tools/list", "ping"]);
    expect(transport.methods.filter((m) => /^(resources|prompts|completion)\//.test(m))).toEqual([]);
  });
});
