import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { compiledBinary, runBinary } from "../../helpers/binary.ts";
import { EVERYTHING_SERVER } from "../../helpers/paths.ts";
import { freePort, spawnServer, type ServerProcess } from "../../helpers/http-server-process.ts";

// A reference server no one here wrote, reached as scripts reach it: the compiled binary, over
// stdio (`--stdio`) and Streamable HTTP (`--url`, the server's Express app with sessions).
let http: ServerProcess;
beforeAll(async () => {
  const port = freePort();
  [http] = await Promise.all([
    spawnServer(["node", EVERYTHING_SERVER, "streamableHttp"], { env: { PORT: String(port) }, ready: /listening on port (\d+)/, path: "/mcp" }),
    compiledBinary(),
  ]);
}, 120_000);
afterAll(() => http?.stop());

const transports: [string, () => string[]][] = [
  ["stdio", () => ["--stdio", `node ${EVERYTHING_SERVER}`]],
  ["Streamable HTTP", () => ["--url", http.url]],
];

for (const [name, source] of transports) {
  describe(`@modelcontextprotocol/server-everything over ${name} (compiled binary)`, () => {
    const cat = (...args: string[]) => runBinary(["mcp", ...args, ...source()]);

    test("mcp resources lists its static documents and marks its templates", async () => {
      const { exitCode, stdout } = await cat("resources");
      expect(stdout).toMatch(/^demo:\/\/resource\/static\/document\/architecture\.md +architecture\.md +text\/markdown$/m);
      expect(stdout).toMatch(/^demo:\/\/resource\/dynamic\/text\/\{resourceId\} +Dynamic Text Resource +text\/plain +\(template\)$/m);
      expect(stdout).toMatch(/^demo:\/\/resource\/dynamic\/blob\/\{resourceId\} +Dynamic Blob Resource +application\/octet-stream +\(template\)$/m);
      expect(exitCode).toBe(0);
    });

    test("mcp read prints a static document, a text template's resource, and a blob's decoded bytes", async () => {
      const doc = await cat("read", "demo://resource/static/document/features.md");
      expect(doc.stdout).toContain("#");
      expect(doc.exitCode).toBe(0);
      const text = await cat("read", "demo://resource/dynamic/text/{resourceId}", "resourceId=7");
      expect(text.stdout).toStartWith("Resource 7: This is a plaintext resource created at ");
      expect(text.exitCode).toBe(0);
      const blob = await cat("read", "demo://resource/dynamic/blob/{resourceId}", "resourceId=3");
      expect(blob.stdout).toStartWith("Resource 3: This is a base64 blob created at ");
      expect(blob.exitCode).toBe(0);
    });

    test("mcp read of a URI it does not know: its message, exit 3", async () => {
      const { exitCode, stderr } = await cat("read", "demo://resource/dynamic/text/0");
      expect(stderr).toContain("Unknown resource: demo://resource/dynamic/text/0");
      expect(exitCode).toBe(3);
    });

    test("mcp prompts lists its prompts with their arguments", async () => {
      const { exitCode, stdout } = await cat("prompts");
      expect(stdout).toMatch(/^simple-prompt +- +A prompt with no arguments$/m);
      expect(stdout).toMatch(/^args-prompt +city\*, state +A prompt with two arguments, one required and one optional$/m);
      expect(stdout).toMatch(/^completable-prompt +department\*, name\* /m);
      expect(exitCode).toBe(0);
    });

    test("mcp prompt with arguments prints its messages; a missing required one is exit 2", async () => {
      const ok = await cat("prompt", "args-prompt", "city=Paris", "state=Texas");
      expect([ok.exitCode, ok.stdout]).toEqual([0, "[user]\nWhat's weather in Paris, Texas?\n"]);
      const missing = await cat("prompt", "args-prompt", "state=Texas");
      expect(missing.stderr).toContain("missing required argument 'city': add city=... (arguments of 'args-prompt': city*, state; * = required)");
      expect(missing.exitCode).toBe(2);
    });
  });
}
