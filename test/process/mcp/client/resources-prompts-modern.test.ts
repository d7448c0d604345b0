/**
 * Resources, prompts and completions in the 2026-07-28 revision, against our modern fixture over
 * stdio and HTTP (`--record` shows what went over the wire): reads that ask for input first (MRTR),
 * and resource subscriptions carried by the `subscriptions/listen` filter, the listen request made
 * again with each new set.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { McpClient, type McpClientOptions } from "../../../../src/mcp/client/mcp-client.ts";
import { RootsProvider } from "../../../../src/mcp/client/roots.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import type { JsonRpcNotification } from "../../../../src/mcp/protocol.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { StdioTransport } from "../../../../src/mcp/transport/stdio-transport.ts";
import { BUN, MODERN_SERVER, REPO, tempDir } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";
import { LISTENING_ON_MCP, spawnServer } from "../../../helpers/http-server-process.ts";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function recorded(file: string): any[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

for (const mode of ["stdio", "http"] as const) {
  describe(`modern fixture over ${mode}`, () => {
    async function connect(options: McpClientOptions = {}) {
      const record = join(tempDir(), "record.jsonl");
      let transport;
      if (mode === "stdio") {
        transport = new StdioTransport({ command: BUN, args: [MODERN_SERVER, "--stdio", "--record", record], env: { PATH: process.env.PATH ?? "" }, cwd: REPO });
      } else {
        const server = await spawnServer([BUN, MODERN_SERVER, "--http", "--record", record], LISTENING_ON_MCP);
        cleanup.push(() => server.stop());
        transport = new HttpTransport({ url: server.url, headers: {} });
      }
      const notifications: JsonRpcNotification[] = [];
      const client = new McpClient(transport, { name: "modern", timeoutMs: 10_000, onNotification: (n) => notifications.push(n), ...options });
      cleanup.push(() => client.close());
      await client.connect();
      expect(client.era).toBe("modern");
      return { client, notifications, requests: () => recorded(record).filter((r) => r.id !== undefined && r.httpMethod !== "GET") };
    }

    test("lists resources and the template, reads text and a blob; an unknown URI is the server's error", async () => {
      const { client, requests } = await connect();
      expect(["resources", "resourceSubscriptions", "prompts", "completions"].map((f) => client.offers(f as never))).toEqual([true, true, true, true]);
      expect((await client.listResources()).map((r) => r.uri)).toEqual(["modern://notes/readme", "modern://notes/todo", "modern://images/dot.png", "modern://roots"]);
      expect(await client.listResourceTemplates()).toEqual([{ uriTemplate: "modern://notes/{name}", name: "note", description: "A note by name", mimeType: "text/plain" }]);
      const note = await client.readResource("modern://notes/readme");
      expect(note.contents).toEqual([{ uri: "modern://notes/readme", mimeType: "text/markdown", text: expect.stringMatching(/^# Modern notes/) }]);
      const image = await client.readResource("modern://images/dot.png");
      expect(Buffer.from(image.contents[0]!.blob!, "base64").subarray(1, 4).toString()).toBe("PNG");
      const missing = await client.readResource("modern://notes/nope").catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(McpError);
      expect((missing as McpError).code).toBe(-32002);
      expect((missing as McpError).message).toBe("Resource not found: modern://notes/nope");
      const reads = requests().filter((r) => r.method === "resources/read");
      expect(reads.map((r) => r._meta["io.modelcontextprotocol/protocolVersion"])).toEqual(["2026-07-28", "2026-07-28", "2026-07-28"]);
      if (mode === "http") expect(reads.map((r) => r.headers["mcp-name"])).toEqual(["modern://notes/readme", "modern://images/dot.png", "modern://notes/nope"]);
    });

    test("a read that asks for the roots first (MRTR) is answered and sent again", async () => {
      const dir = tempDir("cat-code-modern-resource-roots-");
      const { client, requests } = await connect({ roots: new RootsProvider(dir) });
      const read = await client.readResource("modern://roots");
      expect(read.contents[0]!.text).toContain(dir);
      expect(requests().filter((r) => r.method === "resources/read")).toHaveLength(2);
    });

    test("gets the prompt with its arguments; completes its arguments, the earlier one as context, and the template's variable", async () => {
      const { client } = await connect();
      expect((await client.listPrompts()).map((p) => [p.name, p.arguments?.map((a) => `${a.name}${a.required ? "*" : ""}`)])).toEqual([
        ["greet", ["name*", "style"]],
        ["greet_asked", []],
      ]);
      const prompt = await client.getPrompt("greet", { name: "Ada", style: "formal" });
      expect(prompt.messages.map((m) => `${m.role}: ${m.content.text}`)).toEqual(["user: Please greet Ada in a formal way.", "assistant: Sure."]);
      await expect(client.getPrompt("greet", {})).rejects.toThrow("greet needs the argument `name`");
      const ref = { type: "ref/prompt" as const, name: "greet" };
      expect((await client.complete(ref, { name: "style", value: "f" })).values).toEqual(["formal"]);
      expect((await client.complete(ref, { name: "name", value: "A" }, { context: { style: "casual" } })).values).toEqual(["Ada", "Al"]);
      expect((await client.complete({ type: "ref/resource", uri: "modern://notes/{name}" }, { name: "name", value: "t" })).values).toEqual(["todo"]);
    });

    test("a prompt that asks the user first (MRTR form) is answered by the elicitation handler and sent again", async () => {
      const asked: string[] = [];
      const { client, requests } = await connect({
        elicitation: async (request) => {
          asked.push(`${request.server}: ${request.message}`);
          return { action: "accept", content: { name: "Grace" } };
        },
      });
      const prompt = await client.getPrompt("greet_asked", {});
      expect(prompt.messages[0]!.content.text).toBe("Please greet Grace.");
      expect(asked).toEqual(["modern: Who should be greeted?"]);
      const gets = requests().filter((r) => r.method === "prompts/get");
      expect(gets).toHaveLength(2);
      if (mode === "http") expect(gets.map((r) => r.headers["mcp-name"])).toEqual(["greet_asked", "greet_asked"]);
    });

    test("subscriptions ride the listen filter: each change makes the listen request again; updates arrive for subscribed URIs only", async () => {
      const { client, notifications, requests } = await connect();
      const updates = () => notifications.filter((n) => n.method === "notifications/resources/updated").map((n) => (n.params as { uri: string }).uri);
      await client.subscribeResource("modern://notes/readme");
      await client.subscribeResource("modern://notes/todo");
      await client.unsubscribeResource("modern://notes/readme");
      // The unsubscribed one first: when the update of the subscribed one has come, the other would have too.
      await client.callTool("touch_tools", { resource: "modern://notes/readme" });
      await client.callTool("touch_tools", { resource: "modern://notes/todo" });
      await waitFor(() => updates().length > 0, () => `an update; got ${notifications.map((n) => n.method).join(", ")}`);
      expect(updates()).toEqual(["modern://notes/todo"]);
      // The first listen (lists only, at connect) may be given up before it reaches the server: only those with subscriptions count.
      const filters = requests().filter((r) => r.method === "subscriptions/listen" && r.notifications.resourceSubscriptions).map((r) => r.notifications);
      const lists = { toolsListChanged: true, resourcesListChanged: true };
      expect(filters).toEqual([
        { ...lists, resourceSubscriptions: ["modern://notes/readme"] },
        { ...lists, resourceSubscriptions: ["modern://notes/readme", "modern://notes/todo"] },
        { ...lists, resourceSubscriptions: ["modern://notes/todo"] },
      ]);
    });

    test("resources/list_changed on the listen stream drops the cached resource list", async () => {
      const { client, notifications, requests } = await connect();
      await client.listResources();
      await waitFor(() => notifications.some((n) => n.method === "notifications/subscriptions/acknowledged"), "the listen acknowledgement");
      await client.callTool("touch_tools", { list: "resources" });
      await waitFor(() => notifications.some((n) => n.method === "notifications/resources/list_changed"), "resources/list_changed");
      await client.listResources();
      expect(requests().filter((r) => r.method === "resources/list")).toHaveLength(2);
    });
  });
}
