import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, runBinary } from "../../helpers/binary.ts";
import { BUN, REPO, tempDir, writeConfig } from "../../helpers/paths.ts";

const RESOURCE_SERVER = join(REPO, "fixtures", "resources", "resource-server.ts");
const FILESYSTEM_SERVER = join(REPO, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");
const DOT_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

const fixture = (...flags: string[]) => ({ command: BUN, args: [RESOURCE_SERVER, ...flags] });
let config: string;

beforeAll(async () => {
  await compiledBinary();
  config = writeConfig({ fx: fixture("--page-size", "2"), fs: { command: "node", args: [FILESYSTEM_SERVER, REPO] } });
}, 120_000);

/** The compiled binary, its stdout kept as bytes: a blob must arrive unchanged. */
async function runForBytes(args: string[]): Promise<{ exitCode: number; stdout: Buffer; stderr: string }> {
  const child = Bun.spawn([await compiledBinary(), ...args], {
    cwd: REPO,
    env: { ...process.env, CAT_CODE_HOME: tempDir() } as Record<string, string>,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).arrayBuffer(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  return { exitCode, stdout: Buffer.from(stdout), stderr };
}

const cat = (...args: string[]) => runBinary(["mcp", ...args, "--mcp-config", config]);

describe("cat-code mcp resources (compiled binary, our resource fixture)", () => {
  test("lists uri, name, type and size over every page, templates after and marked", async () => {
    const { exitCode, stdout } = await cat("resources", "fx");
    expect(stdout.split("\n")).toEqual([
      "fixture://text/1                  text-1    text/plain  16 B",
      "fixture://text/2                  text-2    text/plain  16 B",
      "fixture://text/3                  text-3    text/plain  16 B",
      "fixture://image/dot.png           dot.png   image/png   70 B",
      "fixture://multi                   multi",
      "fixture://broken                  broken",
      "fixture://greeting/{name}{?lang}  greeting  text/plain  (template)",
      "",
    ]);
    expect(exitCode).toBe(0);
  });

  test("--json gives each resource and template with its server", async () => {
    const { exitCode, stdout } = await cat("resources", "fx", "--json");
    const json = JSON.parse(stdout);
    expect(json.resources).toHaveLength(6);
    expect(json.resources[3]).toEqual({ server: "fx", uri: "fixture://image/dot.png", name: "dot.png", title: "A dot", mimeType: "image/png", size: 70 });
    expect(json.templates).toEqual([
      { server: "fx", uriTemplate: "fixture://greeting/{name}{?lang}", name: "greeting", description: "A greeting for {name}", mimeType: "text/plain" },
    ]);
    expect(exitCode).toBe(0);
  });

  test("a server with 10,000 resources: every one is listed", async () => {
    const many = writeConfig({ many: fixture("--count", "10000", "--page-size", "100") });
    const { exitCode, stdout } = await runBinary(["mcp", "resources", "many", "--mcp-config", many]);
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(10_000 + 3 + 1);
    expect(lines[9_999]).toMatch(/^fixture:\/\/text\/10000 +text-10000 +text\/plain +20 B$/);
    expect(exitCode).toBe(0);
  });

  test("a server that does not answer resources/templates/list still has its resources listed", async () => {
    const noTemplates = writeConfig({ fx: fixture("--no-templates") });
    const { exitCode, stdout } = await runBinary(["mcp", "resources", "fx", "--mcp-config", noTemplates]);
    expect(stdout.trimEnd().split("\n")).toHaveLength(6);
    expect(stdout).not.toContain("(template)");
    expect(exitCode).toBe(0);
  });

  test("a server without the resources capability: named, exit 2 with the reason; listing all, skipped with a note", async () => {
    const named = await cat("resources", "fs");
    expect(named.stderr).toContain("MCP server 'fs' does not offer resources");
    expect(named.exitCode).toBe(2);
    const all = await cat("resources");
    expect(all.stderr).toContain("MCP server 'fs' does not offer resources: skipped");
    expect(all.stdout).toStartWith("fx: 6 resource(s), 1 template(s)\n  fixture://text/1 ");
    expect(all.exitCode).toBe(0);
    const read = await cat("read", "fs", "file:///etc/hostname");
    expect(read.stderr).toContain("does not offer resources");
    expect(read.exitCode).toBe(2);
  });
});

describe("cat-code mcp read (compiled binary, our resource fixture)", () => {
  test("a text resource is printed as it is", async () => {
    const { exitCode, stdout } = await cat("read", "fx", "fixture://text/2");
    expect([exitCode, stdout]).toEqual([0, "text resource 2\n"]);
  });

  test("a blob to a pipe is its decoded bytes, exactly", async () => {
    const { exitCode, stdout } = await runForBytes(["mcp", "read", "fx", "fixture://image/dot.png", "--mcp-config", config]);
    expect(stdout.equals(DOT_PNG)).toBe(true);
    expect(exitCode).toBe(0);
  });

  test("--out writes the decoded blob to the file and says so on stderr", async () => {
    const out = join(tempDir(), "dot.png");
    const { exitCode, stdout, stderr } = await cat("read", "fx", "fixture://image/dot.png", "--out", out);
    expect(readFileSync(out).equals(DOT_PNG)).toBe(true);
    expect(stderr).toContain(`wrote fixture://image/dot.png (image/png, 70 B) to ${out}`);
    expect([exitCode, stdout]).toEqual([0, ""]);
  });

  test("several parts: each named on stderr, the contents alone on stdout", async () => {
    const { exitCode, stdout, stderr } = await runForBytes(["mcp", "read", "fx", "fixture://multi", "--mcp-config", config]);
    expect(stdout.equals(Buffer.concat([Buffer.from("the text part"), Buffer.from([0, 1, 2, 255])]))).toBe(true);
    expect(stderr).toContain("--- fixture://multi#text (text/plain, 13 B)");
    expect(stderr).toContain("--- fixture://multi#blob (application/octet-stream, 4 B)");
    expect(exitCode).toBe(0);
  });

  test("--json prints the whole result", async () => {
    const { exitCode, stdout } = await cat("read", "fx", "fixture://image/dot.png", "--json");
    expect(JSON.parse(stdout)).toEqual({ contents: [{ uri: "fixture://image/dot.png", mimeType: "image/png", blob: DOT_PNG.toString("base64") }] });
    expect(exitCode).toBe(0);
  });

  test("a read that fails, and an unknown URI: the server's message, exit 3", async () => {
    const broken = await cat("read", "fx", "fixture://broken");
    expect(broken.stderr).toContain("reading 'fixture://broken' from 'fx' failed: ");
    expect(broken.stderr).toContain("the disk is on fire");
    expect(broken.exitCode).toBe(3);
    const unknown = await cat("read", "fx", "fixture://nope");
    expect(unknown.stderr).toContain("Resource not found: fixture://nope");
    expect(unknown.exitCode).toBe(3);
  });

  test("a template URI is filled in from key=value", async () => {
    const { exitCode, stdout } = await cat("read", "fx", "fixture://greeting/{name}{?lang}", "name=Ann Lee", "lang=fr");
    expect([exitCode, stdout]).toEqual([0, "Bonjour, Ann Lee!"]);
  });

  test("a template variable left out, or key=value with a plain URI: exit 2 before any server starts", async () => {
    // The config's only server cannot start: a usage error must come first.
    const unstartable = writeConfig({ fx: { command: join(tempDir(), "no-such-server") } });
    const missing = await runBinary(["mcp", "read", "fx", "fixture://greeting/{name}{?lang}", "lang=fr", "--mcp-config", unstartable]);
    expect(missing.stderr).toContain("missing template variable 'name': add name=... (template fixture://greeting/{name}{?lang}; variables: name*, lang, * = required)");
    expect(missing.exitCode).toBe(2);
    const plain = await runBinary(["mcp", "read", "fx", "fixture://text/1", "name=x", "--mcp-config", unstartable]);
    expect(plain.stderr).toContain("key=value arguments (name=x) only go with a template URI");
    expect(plain.exitCode).toBe(2);
  });

  test("an unknown server or a missing URI is a usage error", async () => {
    const server = await cat("read", "fz", "fixture://text/1");
    expect(server.stderr).toContain("unknown server 'fz'. Did you mean: fx");
    expect(server.exitCode).toBe(2);
    const uri = await cat("read", "fx");
    expect(uri.stderr).toContain("usage: cat-code mcp read <server> <uri>");
    expect(uri.exitCode).toBe(2);
  });
});
