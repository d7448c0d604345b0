import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parseServerEntry } from "../../../src/mcp/config/load-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { expandResourceMentions, findResourceMentions, mentionedServers } from "../../../src/repl/resource-mentions.ts";
import { ResourceUpdates } from "../../../src/repl/resource-updates.ts";
import { BUN, EVERYTHING_SERVER, REPO } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

const PICTURE_SERVER = join(REPO, "fixtures/picture-server.ts");
const FILESYSTEM_SERVER = join(REPO, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const ARCHITECTURE = "demo://resource/static/document/architecture.md";

let pool: ServerPool;

beforeAll(async () => {
  pool = new ServerPool([
    parseServerEntry("everything", { command: BUN, args: [EVERYTHING_SERVER, "stdio"] }, "flag", "test", {}),
    parseServerEntry("pic", { command: BUN, args: [PICTURE_SERVER] }, "flag", "test", {}),
    parseServerEntry("fs", { command: BUN, args: [FILESYSTEM_SERVER, REPO] }, "flag", "test", {}),
  ]);
  await pool.connectAll();
}, 60_000);

afterAll(() => pool?.closeAll());

const found = (text: string) => findResourceMentions(text, pool).map((m) => `${m.server}:${m.uri}`);

describe("finding @server:uri mentions", () => {
  test("a mention starts a word; the uri runs to the next blank, without a trailing ,.;:)", () => {
    expect(found(`read @everything:${ARCHITECTURE}, then (see @pic:pic://logo.png).`)).toEqual([`everything:${ARCHITECTURE}`, "pic:pic://logo.png"]);
    expect(found(`@everything:${ARCHITECTURE}\tand @everything:${ARCHITECTURE}`)).toEqual([`everything:${ARCHITECTURE}`]);
  });

  test("an email address, an unknown server, a server without resources, a bare @server: stay plain text", () => {
    expect(found("mail me@everything:demo://x or bob@example.com")).toEqual([]);
    expect(found("@nobody:demo://x @fs:file:///etc/passwd @everything: @everything:.")).toEqual([]);
    expect(mentionedServers("plain text, me@example.com")).toEqual([]);
    expect(mentionedServers("see @fs:file:///a and @nobody:x")).toEqual(["fs", "nobody"]);
  });
});

describe("expandResourceMentions", () => {
  test("the prompt stays as typed; each resource follows as blocks, and is named with its size", async () => {
    const prompt = `compare @everything:${ARCHITECTURE} with @pic:pic://logo.png.`;
    const expanded = await expandResourceMentions(prompt, pool);
    if ("error" in expanded) throw new Error(expanded.error);
    expect(expanded.blocks[0]).toEqual({ type: "text", text: prompt });
    expect((expanded.blocks[1] as { text: string }).text).toStartWith(`[resource everything:${ARCHITECTURE}, text/markdown]\n`);
    expect(expanded.blocks.slice(2).map((b) => b.type)).toEqual(["text", "image"]);
    expect(expanded.attached).toHaveLength(2);
    expect(expanded.attached[0]).toMatch(new RegExp(`^everything:${ARCHITECTURE} \\(\\d+\\.\\d KB\\)$`));
    expect(expanded.attached[1]).toBe("pic:pic://logo.png (3.9 KB)");
  });

  test("a prompt without mentions is one text block and attaches nothing", async () => {
    expect(await expandResourceMentions("hello me@example.com", pool)).toEqual({ blocks: [{ type: "text", text: "hello me@example.com" }], attached: [], resources: [] });
  });

  test("a read that fails fails the whole, naming the mention and the server's error", async () => {
    const expanded = await expandResourceMentions(`@everything:${ARCHITECTURE} and @pic:pic://broken`, pool);
    expect("error" in expanded && expanded.error).toStartWith("could not attach @pic:pic://broken: ");
    expect("error" in expanded && expanded.error).toContain("the disk is on fire");
  });
});

describe("ResourceUpdates", () => {
  test("an attached resource of a server offering subscriptions is subscribed; its change is one news line until mentioned again", async () => {
    const news: string[] = [];
    const updates = new ResourceUpdates((line) => news.push(line));
    pool.on("resource-updated", ({ server, uri }) => updates.updated(server, uri));
    const expanded = await expandResourceMentions(`@everything:${ARCHITECTURE} @pic:pic://logo.png`, pool);
    if ("error" in expanded) throw new Error(expanded.error);
    await updates.watch(expanded.resources);
    // server-everything then says the subscribed URI changed, at once and every 5 s after.
    const client = pool.client("everything")!;
    await client.callTool("toggle-subscriber-updates", {});
    await waitFor(() => news.length > 0, "the news line");
    expect(news).toEqual([`MCP: everything says ${ARCHITECTURE} changed (mention it again to send the new content)`]);
    // A second change is not news until it is attached again; a URI nobody attached never is.
    updates.updated("everything", ARCHITECTURE);
    updates.updated("everything", "demo://other");
    expect(news).toHaveLength(1);
    await updates.watch(expanded.resources);
    updates.updated("everything", ARCHITECTURE);
    expect(news).toHaveLength(2);
    await client.callTool("toggle-subscriber-updates", {});
  }, 30_000);
});
