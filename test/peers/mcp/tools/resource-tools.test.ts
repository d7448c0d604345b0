import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parseServerEntry } from "../../../../src/mcp/config/load-config.ts";
import { ServerPool } from "../../../../src/mcp/pool/server-pool.ts";
import { needsPermission } from "../../../../src/agent/permission.ts";
import { ListMcpResourcesTool, ReadMcpResourceTool } from "../../../../src/mcp/tools/resource-tools.ts";
import { BUN, EVERYTHING_SERVER, REPO } from "../../../helpers/paths.ts";

const PICTURE_SERVER = join(REPO, "fixtures/picture-server.ts");
const FILESYSTEM_SERVER = join(REPO, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

let pool: ServerPool;
let list: ListMcpResourcesTool;
let read: ReadMcpResourceTool;

beforeAll(async () => {
  pool = new ServerPool([
    parseServerEntry("everything", { command: BUN, args: [EVERYTHING_SERVER, "stdio"] }, "flag", "test", {}),
    parseServerEntry("pic", { command: BUN, args: [PICTURE_SERVER] }, "flag", "test", {}),
    parseServerEntry("fs", { command: BUN, args: [FILESYSTEM_SERVER, REPO] }, "flag", "test", {}),
  ]);
  await pool.connectAll();
  expect(pool.status().map((s) => s.state)).toEqual(["connected", "connected", "connected"]);
  const servers = () => pool.serversOffering("resources");
  list = new ListMcpResourcesTool(servers);
  read = new ReadMcpResourceTool(servers);
}, 60_000);

afterAll(() => pool?.closeAll());

describe("list_mcp_resources and read_mcp_resource against real servers", () => {
  test("both only read; listing never asks, a read (its URI the model's text, sent to the server) always does", async () => {
    expect(list.isReadOnly && read.isReadOnly).toBe(true);
    expect(await list.needsPermission()).toBe(false);
    // No needsPermission: the agent asks (see needsPermission in src/agent/permission.ts).
    expect(await needsPermission(read, { server: "everything", uri: "demo://resource/static/document/architecture.md" })).toBe(true);
  });

  test("list: every server offering resources, its resources and templates; the filesystem server (no resources) is not there", async () => {
    const result = await list.execute({});
    expect(result.isError).toBe(false);
    const lines = result.content.split("\n");
    expect(lines).toContain("everything: 7 resource(s), 2 template(s)");
    expect(lines).toContain("  demo://resource/static/document/architecture.md (architecture.md, text/markdown): Static document file exposed from /docs: architecture.md");
    expect(lines).toContain("  template demo://resource/dynamic/text/{resourceId} (Dynamic Text Resource, text/plain): Plaintext dynamic resource fabricated from the {resourceId} variable, which must be an integer.");
    expect(lines).toContain("pic: 4 resource(s), 0 template(s)");
    expect(result.content).not.toContain("fs");
    const one = await list.execute({ server: "pic" });
    expect(one.content.split("\n")[0]).toBe("pic: 4 resource(s), 0 template(s)");
  });

  test("a server that does not offer resources, or is unknown, is an error result naming those that do", async () => {
    expect(await list.execute({ server: "fs" })).toEqual({
      content: "Error: no connected MCP server named 'fs' offers resources (servers with resources: everything, pic)",
      isError: true,
    });
    expect((await read.execute({ server: "nope", uri: "x://y" })).isError).toBe(true);
    expect(await read.execute({ server: "pic" })).toEqual({ content: "Error: server and uri must both be strings", isError: true });
  });

  test("read: a text resource as text, a template's resource, a blob of text decoded", async () => {
    const doc = await read.execute({ server: "everything", uri: "demo://resource/static/document/architecture.md" });
    expect(doc.isError).toBe(false);
    expect(doc.content.split("\n")[0]).toBe("[resource everything:demo://resource/static/document/architecture.md, text/markdown]");
    expect(doc.content.length).toBeGreaterThan(200);
    expect(doc.images).toBeUndefined();
    const dynamic = await read.execute({ server: "everything", uri: "demo://resource/dynamic/blob/3" });
    expect(dynamic.content).toMatch(/^\[resource everything:demo:\/\/resource\/dynamic\/blob\/3, text\/plain\]\nResource 3: This is a base64 blob created at /);
  });

  test("read: an image resource comes back as an image; another binary is described", async () => {
    const logo = await read.execute({ server: "pic", uri: "pic://logo.png" });
    expect(logo.content).toBe("[image pic:pic://logo.png 20×20 png]");
    expect(logo.images).toHaveLength(1);
    expect(logo.images![0]!.mediaType).toBe("image/png");
    const pdf = await read.execute({ server: "pic", uri: "pic://manual.pdf" });
    expect(pdf).toEqual({ content: "[binary resource pic:pic://manual.pdf, application/pdf, 1.8 KB: not shown]", isError: false });
  });

  test("read: an unknown URI and a failing read are error results with the server's message", async () => {
    const unknown = await read.execute({ server: "everything", uri: "demo://resource/dynamic/text/0" });
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toStartWith("Error: reading demo://resource/dynamic/text/0 from MCP server 'everything' failed: ");
    expect(unknown.content).toContain("Unknown resource");
    const broken = await read.execute({ server: "pic", uri: "pic://broken" });
    expect(broken.isError).toBe(true);
    expect(broken.content).toContain("the disk is on fire");
  });
});
