import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, runBinary } from "../../helpers/binary.ts";
import { BUN, MODERN_SERVER, REPO, tempDir, writeConfig } from "../../helpers/paths.ts";
import { spawnServer, type ServerProcess } from "../../helpers/http-server-process.ts";

// Our 2026-07-28 server (no handshake; a read may ask for input first), reached by the compiled binary.
const record = join(tempDir(), "requests.jsonl");
let http: ServerProcess;
let config: string;
beforeAll(async () => {
  [http] = await Promise.all([spawnServer([BUN, MODERN_SERVER, "--http"], { ready: /listening http:\/\/127\.0\.0\.1:(\d+)\//, path: "/mcp" }), compiledBinary()]);
  config = writeConfig({ stdio: { command: BUN, args: [MODERN_SERVER, "--stdio", "--record", record] }, http: { type: "http", url: http.url } });
}, 120_000);
afterAll(() => http?.stop());

for (const server of ["stdio", "http"]) {
  describe(`a 2026-07-28 server over ${server} (compiled binary)`, () => {
    const cat = (...args: string[]) => runBinary(["mcp", ...args, "--mcp-config", config], { env: { CAT_CODE_HOME: tempDir() } });

    test("mcp resources lists its resources and its template", async () => {
      const { exitCode, stdout } = await cat("resources", server);
      expect(stdout).toMatch(/^modern:\/\/notes\/readme +readme +text\/markdown +\d+ B$/m);
      expect(stdout).toMatch(/^modern:\/\/images\/dot\.png +dot +image\/png +70 B$/m);
      expect(stdout).toMatch(/^modern:\/\/notes\/\{name\} +note +text\/plain +\(template\)$/m);
      expect(exitCode).toBe(0);
    });

    test("mcp read: a template filled in, a read that asks for the roots first, an unknown URI (exit 3)", async () => {
      const todo = await cat("read", server, "modern://notes/{name}", "name=todo");
      expect([todo.exitCode, todo.stdout]).toEqual([0, "- list resources\n- read them\n"]);
      const roots = await cat("read", server, "modern://roots");
      expect(roots.stdout).toContain(`file://${REPO}`);
      expect(roots.exitCode).toBe(0);
      const unknown = await cat("read", server, "modern://notes/nope");
      expect(unknown.stderr).toContain("Resource not found: modern://notes/nope");
      expect(unknown.exitCode).toBe(3);
    });

    test("mcp prompt prints its messages", async () => {
      const { exitCode, stdout } = await cat("prompt", server, "greet", "name=Ada", "style=formal");
      expect([exitCode, stdout]).toEqual([0, "[user]\nPlease greet Ada in a formal way.\n\n[assistant]\nSure.\n"]);
    });

    test("mcp prompt of a prompt that asks the user first: declined (nobody to ask), with a line saying what was asked", async () => {
      const { exitCode, stdout, stderr } = await cat("prompt", server, "greet_asked");
      expect(stderr).toContain(`cat-code: ${server} asked for input ("Who should be greeted?", fields: name) — declined: run it in the REPL to answer`);
      expect([exitCode, stdout]).toEqual([0, "[user]\nPlease greet nobody.\n"]);
    });
  });
}

test("the one-shot commands open no subscriptions/listen stream, though the server announces changes", async () => {
  for (const command of ["resources", "read", "prompts"]) {
    const args = command === "read" ? [command, "stdio", "modern://notes/todo"] : [command, "stdio"];
    expect((await runBinary(["mcp", ...args, "--mcp-config", config], { env: { CAT_CODE_HOME: tempDir() } })).exitCode).toBe(0);
  }
  const methods = readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line).method);
  expect(methods).toEqual(expect.arrayContaining(["server/discover", "resources/list", "resources/read", "prompts/list"]));
  expect(methods).not.toContain("subscriptions/listen");
});
