/**
 * Resources, prompts and completions against a real peer no one here wrote:
 * `@modelcontextprotocol/server-everything`, over stdio and over Streamable HTTP. It declares
 * resources (with subscriptions), prompts and completions; its static documents, its two templates,
 * its four prompts and its completable arguments are what these tests read.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import type { JsonRpcNotification } from "../../../../src/mcp/protocol.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { StdioTransport } from "../../../../src/mcp/transport/stdio-transport.ts";
import { EVERYTHING_SERVER } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";
import { freePort, spawnServer, type ServerProcess } from "../../../helpers/http-server-process.ts";

for (const mode of ["stdio", "http"] as const) {
  describe(`server-everything over ${mode}`, () => {
    let client: McpClient;
    let server: ServerProcess | undefined;
    const notifications: JsonRpcNotification[] = [];

    beforeAll(async () => {
      let transport;
      if (mode === "stdio") {
        transport = new StdioTransport({ command: "node", args: [EVERYTHING_SERVER, "stdio"], env: process.env as Record<string, string> });
      } else {
        // It takes its port from PORT only, so ask the OS for a free one first.
        server = await spawnServer(["node", EVERYTHING_SERVER, "streamableHttp"], {
          env: { PORT: String(freePort()) },
          ready: /listening on port (\d+)/,
          path: "/mcp",
        });
        transport = new HttpTransport({ url: server.url, headers: {} });
      }
      client = new McpClient(transport, { name: "everything", timeoutMs: 15_000, onNotification: (n) => notifications.push(n) });
      await client.connect();
    });
    afterAll(async () => {
      await client?.close();
      await server?.stop();
    });

    test("offers resources, their subscriptions, prompts and completions, as it declared", () => {
      expect(["resources", "resourceSubscriptions", "prompts", "completions"].map((f) => client.offers(f as never))).toEqual([true, true, true, true]);
    });

    test("lists its static documents and its two templates", async () => {
      const resources = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain("demo://resource/static/document/features.md");
      expect(resources.find((r) => r.uri.endsWith("features.md"))).toMatchObject({ name: "features.md", mimeType: "text/markdown" });
      const templates = await client.listResourceTemplates();
      expect(templates.map((t) => t.uriTemplate).sort()).toEqual(["demo://resource/dynamic/blob/{resourceId}", "demo://resource/dynamic/text/{resourceId}"]);
    });

    test("reads a text resource and a blob resource", async () => {
      const text = await client.readResource("demo://resource/static/document/features.md");
      expect(text.contents).toHaveLength(1);
      expect(text.contents[0]).toMatchObject({ uri: "demo://resource/static/document/features.md", mimeType: "text/markdown" });
      expect(text.contents[0]!.text!.length).toBeGreaterThan(100);
      const blob = await client.readResource("demo://resource/dynamic/blob/7");
      expect(Buffer.from(blob.contents[0]!.blob!, "base64").toString()).toStartWith("Resource 7: This is a base64 blob");
    });

    test("an unknown resource is the server's error, as a rejection", async () => {
      await expect(client.readResource("demo://resource/dynamic/text/nope")).rejects.toThrow("Unknown resource");
    });

    test("lists its prompts with their arguments and gets one with arguments", async () => {
      const prompts = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(["simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"]));
      expect(prompts.find((p) => p.name === "args-prompt")?.arguments).toEqual([
        expect.objectContaining({ name: "city", required: true }),
        expect.objectContaining({ name: "state", required: false }),
      ]);
      const prompt = await client.getPrompt("args-prompt", { city: "Lyon", state: "Rhône" });
      expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "What's weather in Lyon, Rhône?" } }]);
    });

    test("completes a prompt argument, the earlier one as context, and a template variable", async () => {
      const departments = await client.complete({ type: "ref/prompt", name: "completable-prompt" }, { name: "department", value: "S" });
      expect(departments.values).toEqual(["Sales", "Support"]);
      const names = await client.complete(
        { type: "ref/prompt", name: "completable-prompt" },
        { name: "name", value: "" },
        { context: { department: "Engineering" } },
      );
      expect(names.values).toEqual(["Alice", "Bob", "Charlie"]);
      const ids = await client.complete({ type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" }, { name: "resourceId", value: "42" });
      expect(ids.values).toEqual(["42"]);
    });

    test("a subscribed resource's update arrives as notifications/resources/updated", async () => {
      const uri = "demo://resource/static/document/features.md";
      await client.subscribeResource(uri);
      // The server sends an update for every subscribed URI as soon as updates are switched on.
      await client.callTool("toggle-subscriber-updates", {});
      const updated = await waitFor(
        () => notifications.find((n) => n.method === "notifications/resources/updated"),
        () => `notifications/resources/updated; got ${notifications.map((n) => n.method).join(", ")}`,
      );
      expect(updated.params).toEqual({ uri });
      await client.callTool("toggle-subscriber-updates", {});
      await client.unsubscribeResource(uri);
    });
  });
}
