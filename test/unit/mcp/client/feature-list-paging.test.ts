/**
 * The resource, template and prompt lists against raw peers scripted byte for byte: a Streamable
 * HTTP server on 127.0.0.1 (paging, cursors, 10,000 resources, malformed items, sharing one request)
 * and the in-memory transport for what it does best (notifications that drop a cache).
 */
import { describe, expect, test } from "bun:test";
import { initializeResult, result, type RecordedRequest } from "../../../../fixtures/http/scripted-server.ts";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { debugLines } from "../../../helpers/debug-lines.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";
import { nestedObject } from "../../../helpers/nested-object.ts";
import { scriptedServers } from "../../../helpers/scripted-servers.ts";

const { serve, keep } = scriptedServers();
const CAPABILITIES = { resources: { listChanged: true }, prompts: { listChanged: true }, completions: {} };

type Pages = Record<string, (cursor: string | undefined) => object>;

/** A legacy HTTP server declaring resources and prompts whose list pages `pages` gives, by method and cursor. */
async function pagedServer(pages: Pages) {
  const server = serve((request: RecordedRequest) => {
    const { id, method, params } = request.body ?? {};
    if (method === "initialize") return Response.json(initializeResult(id, CAPABILITIES), { headers: { "Mcp-Session-Id": "s1" } });
    const page = pages[method];
    return page ? Response.json(result(id, page(params?.cursor))) : undefined;
  });
  const client = keep(new McpClient(new HttpTransport({ url: server.url, headers: {} }), { name: "paged", timeoutMs: 10_000 }));
  await client.connect();
  return { server, client };
}

const resource = (i: number) => ({ uri: `test://r/${i}`, name: `r${i}`, mimeType: "text/plain" });

describe("paging", () => {
  test("three pages of resources, each asked with the cursor the last one gave", async () => {
    const { server, client } = await pagedServer({
      "resources/list": (cursor) =>
        cursor === undefined ? { resources: [resource(1)], nextCursor: "p2" } : cursor === "p2" ? { resources: [resource(2)], nextCursor: "p3" } : { resources: [resource(3)] },
    });
    expect((await client.listResources()).map((r) => r.uri)).toEqual(["test://r/1", "test://r/2", "test://r/3"]);
    expect(server.posts("resources/list").map((r) => r.body.params?.cursor)).toEqual([undefined, "p2", "p3"]);
  });

  test("templates and prompts page the same way", async () => {
    const { client } = await pagedServer({
      "resources/templates/list": (cursor) =>
        cursor ? { resourceTemplates: [{ uriTemplate: "test://b/{id}", name: "b" }] } : { resourceTemplates: [{ uriTemplate: "test://a/{id}", name: "a" }], nextCursor: "t2" },
      "prompts/list": (cursor) => (cursor ? { prompts: [{ name: "second", arguments: [{ name: "x", required: true }] }] } : { prompts: [{ name: "first" }], nextCursor: "q2" }),
    });
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["test://a/{id}", "test://b/{id}"]);
    expect(await client.listPrompts()).toEqual([{ name: "first" }, { name: "second", arguments: [{ name: "x", required: true }] }]);
  });

  test("a cursor given twice is an error naming it, not an endless loop", async () => {
    const { server, client } = await pagedServer({ "resources/list": () => ({ resources: [resource(1)], nextCursor: "again" }) });
    await expect(client.listResources()).rejects.toThrow('resources/list repeated the cursor "again"');
    expect(server.posts("resources/list")).toHaveLength(2);
  });

  test("10,000 resources over 10 pages are all listed", async () => {
    const { client } = await pagedServer({
      "resources/list": (cursor) => {
        const page = Number(cursor ?? 0);
        return { resources: Array.from({ length: 1000 }, (_, i) => resource(page * 1000 + i)), ...(page < 9 && { nextCursor: String(page + 1) }) };
      },
    });
    const resources = await client.listResources();
    expect(resources).toHaveLength(10_000);
    expect(resources[9999]!.uri).toBe("test://r/9999");
  });

  test("a malformed resource is left out with a debug line; the others stay", async () => {
    const { client } = await pagedServer({
      "resources/list": () => ({
        resources: [resource(1), { name: "no uri" }, { uri: 7, name: "x" }, { uri: "test://deep", name: "deep", extra: nestedObject(100) }, resource(5), { ...resource(6), description: "d".repeat(70_000) }],
      }),
      "prompts/list": () => ({ prompts: [{ name: "ok" }, { name: "bad args", arguments: [{ required: true }] }] }),
    });
    let resources: unknown[] = [];
    let prompts: unknown[] = [];
    const lines = await debugLines(async () => {
      resources = await client.listResources();
      prompts = await client.listPrompts();
    });
    expect(resources).toEqual([resource(1), resource(5)]);
    expect(prompts).toEqual([{ name: "ok" }]);
    expect(lines).toContain('paged: resources/list item #2 is left out: invalid at "uri": Invalid key: Expected "uri" but received undefined');
    expect(lines.some((l) => l.startsWith('paged: resources/list item #3 is left out: invalid at "uri"'))).toBe(true);
    expect(lines).toContain("paged: resources/list item #4 is left out: nested deeper than 64 levels");
    expect(lines).toContain("paged: resources/list item #6 is left out: its entry is 70,073 characters, more than the 64 KB allowed");
    expect(lines.some((l) => l.startsWith('paged: prompts/list item #2 is left out: invalid at "arguments.0.name"'))).toBe(true);
  });

  test("a page that is not a list is the server's error", async () => {
    const { client } = await pagedServer({ "resources/list": () => ({ resources: "none" }) });
    await expect(client.listResources()).rejects.toThrow('the server sent an invalid resources/list result at "resources"');
  });

  test("callers at the same time share one request; later callers get the cache", async () => {
    const { server, client } = await pagedServer({ "resources/list": () => ({ resources: [resource(1)] }) });
    const [a, b] = await Promise.all([client.listResources(), client.listResources()]);
    expect(a).toBe(b);
    await client.listResources();
    expect(server.posts("resources/list")).toHaveLength(1);
  });

  test("a failed list is not cached: the next caller asks again", async () => {
    let calls = 0;
    const { client } = await pagedServer({ "prompts/list": () => (++calls === 1 ? { prompts: 3 } : { prompts: [{ name: "p" }] }) });
    await expect(client.listPrompts()).rejects.toThrow("invalid prompts/list result");
    expect(await client.listPrompts()).toEqual([{ name: "p" }]);
  });
});

describe("list_changed", () => {
  async function memoryClient() {
    let version = 1;
    const transport = new MemoryTransport({
      initialize: () => ({ ...(initializeHandler()({}, { id: 0, method: "initialize" }) as object), capabilities: CAPABILITIES }),
      "resources/list": () => ({ resources: [resource(version)] }),
      "resources/templates/list": () => ({ resourceTemplates: [{ uriTemplate: `test://t${version}/{x}`, name: "t" }] }),
      "prompts/list": () => ({ prompts: [{ name: `p${version}` }] }),
    });
    const client = new McpClient(transport);
    await client.connect();
    return { transport, client, bump: () => version++ };
  }
  const count = (transport: MemoryTransport, method: string) => transport.sent.filter((m) => m.method === method).length;

  test("resources/list_changed drops the resource and template lists, not the prompts", async () => {
    const { transport, client, bump } = await memoryClient();
    await Promise.all([client.listResources(), client.listResourceTemplates(), client.listPrompts()]);
    bump();
    transport.serverNotification("notifications/resources/list_changed");
    expect((await client.listResources())[0]!.uri).toBe("test://r/2");
    expect((await client.listResourceTemplates())[0]!.uriTemplate).toBe("test://t2/{x}");
    expect((await client.listPrompts())[0]!.name).toBe("p1");
    expect([count(transport, "resources/list"), count(transport, "resources/templates/list"), count(transport, "prompts/list")]).toEqual([2, 2, 1]);
  });

  test("prompts/list_changed drops the prompt list only", async () => {
    const { transport, client, bump } = await memoryClient();
    await Promise.all([client.listResources(), client.listPrompts()]);
    bump();
    transport.serverNotification("notifications/prompts/list_changed");
    expect((await client.listPrompts())[0]!.name).toBe("p2");
    expect((await client.listResources())[0]!.uri).toBe("test://r/1");
    expect([count(transport, "resources/list"), count(transport, "prompts/list")]).toEqual([1, 2]);
  });
});

test("a list of more than 64 MB in all is refused, though each entry is small enough", async () => {
  // One string shared by every entry: the memory transport hands objects over without copying them.
  const description = "d".repeat(60_000);
  const transport = new MemoryTransport({
    initialize: () => ({ protocolVersion: "2025-11-25", capabilities: { resources: {} } }),
    "resources/list": () => ({ resources: Array.from({ length: 1200 }, (_, i) => ({ ...resource(i), description })) }),
  });
  const client = new McpClient(transport);
  await client.connect();
  await expect(client.listResources()).rejects.toThrow("resources/list holds more than 64 MB; the list was refused");
});
