import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ScriptedServer } from "../../../fixtures/http/scripted-server.ts";
import { compiledBinary, runBinary } from "../../helpers/binary.ts";
import { BUN, REPO, tempDir, writeConfig } from "../../helpers/paths.ts";

const RESOURCE_SERVER = join(REPO, "fixtures", "resources", "resource-server.ts");

/** A server that wants an OAuth sign-in: every request is a 401 with a Bearer challenge. */
let protectedServer: ScriptedServer;
let config: string;
let home: string;
beforeAll(async () => {
  protectedServer = new ScriptedServer(
    () => new Response("unauthorized", { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="mcp", error="invalid_token"' } }),
  );
  home = tempDir();
  config = writeConfig({
    fx: { command: BUN, args: [RESOURCE_SERVER, "--hostile"] },
    linear: { type: "http", url: protectedServer.url },
    gone: { command: join(tempDir(), "no-such-server") },
  });
  await compiledBinary();
}, 120_000);
afterAll(() => protectedServer?.stop());

const cat = (...args: string[]) => runBinary(["mcp", ...args, "--mcp-config", config], { env: { CAT_CODE_HOME: home, BROWSER: "/bin/false" } });

describe("mcp resources, read, prompts and prompt: the exit codes of mcp call", () => {
  test("a server that needs a sign-in is NEEDS-AUTH, exit 5, naming the login command", async () => {
    for (const args of [["resources", "linear"], ["read", "linear", "x://y"], ["prompts", "linear"], ["prompt", "linear", "p"]]) {
      const { exitCode, stderr } = await cat(...args);
      expect(stderr).toContain(`cat-code mcp login --mcp-config ${config} linear`);
      expect(exitCode).toBe(5);
    }
  });

  test("a server that cannot start is exit 3 naming it", async () => {
    const { exitCode, stderr } = await cat("resources", "gone");
    expect(stderr).toContain("cannot connect to MCP server 'gone'");
    expect(exitCode).toBe(3);
  });

  test("listing all: the servers that need a sign-in or failed are noted on stderr, the others listed, exit 0", async () => {
    const { exitCode, stdout, stderr } = await cat("prompts");
    expect(stderr).toContain("cat-code mcp login");
    expect(stderr).toContain("MCP server 'gone' failed");
    expect(stdout).toContain("fx: 2 prompt(s)");
    expect(exitCode).toBe(0);
  });

  test("--out into a folder that does not exist: exit 3 naming the file", async () => {
    const out = join(tempDir(), "missing", "dot.png");
    const { exitCode, stderr } = await cat("read", "fx", "fixture://image/dot.png", "--out", out);
    expect(stderr).toContain(`cannot write ${out}`);
    expect(exitCode).toBe(3);
  });
});

describe("hostile names and descriptions", () => {
  test("each resource and prompt stays one line, with no escape sequence or control character", async () => {
    for (const args of [["resources", "fx"], ["prompts", "fx"]]) {
      const { exitCode, stdout } = await cat(...args);
      const line = stdout.split("\n").find((l) => l.includes("evil"));
      expect(line).toContain("evil line");
      expect(stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      expect(stdout).not.toContain("pwned");
      expect(exitCode).toBe(0);
    }
  });
});
