/**
 * The era each real server gets, with no setting: our modern-only fixture and the SDK v2 dual-era
 * server (stdio and HTTP) are modern; the SDK v1 servers, server-everything and the bash echo
 * server are legacy. For the modern fixture, `--record` shows what went over the wire.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PROBE_WINDOW_MS } from "../../../../src/mcp/client/era-detection.ts";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import type { JsonRpcNotification } from "../../../../src/mcp/protocol.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { StdioTransport } from "../../../../src/mcp/transport/stdio-transport.ts";
import type { Transport } from "../../../../src/mcp/transport/transport.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { BUN, ECHO_SERVER, EVERYTHING_SERVER, MODERN_SERVER, REPO, SDK_STDIO_SERVER, SDK_V2_SERVER, tempDir } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";
import { LISTENING_ON_MCP, spawnServer, type ServerProcess } from "../../../helpers/http-server-process.ts";

const MODERN = "2026-07-28";
const SDK_V1_HTTP_SERVER = join(REPO, "fixtures", "http", "sdk-http-server.ts");

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const stdio = (command: string, ...args: string[]) =>
  new StdioTransport({ command, args, env: { PATH: process.env.PATH ?? "" } as Record<string, string>, cwd: REPO });

async function connected(transport: Transport, options: ConstructorParameters<typeof McpClient>[1] = {}): Promise<McpClient> {
  const client = new McpClient(transport, { timeoutMs: 10_000, ...options });
  cleanup.push(() => client.close());
  await client.connect();
  return client;
}

async function httpServer(argv: string[], ready = LISTENING_ON_MCP): Promise<ServerProcess> {
  const server = await spawnServer(argv, ready);
  cleanup.push(() => server.stop());
  return server;
}

function recorded(file: string): any[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

describe("our modern-only fixture", () => {
  for (const mode of ["stdio", "http"] as const) {
    test(`${mode}: modern, no initialize, _meta on every request; a tools/list_changed arrives through subscriptions/listen`, async () => {
      const file = join(tempDir(), "record.jsonl");
      const transport =
        mode === "stdio"
          ? stdio(BUN, MODERN_SERVER, "--stdio", "--record", file)
          : new HttpTransport({ url: (await httpServer([BUN, MODERN_SERVER, "--http", "--record", file])).url, headers: {} });
      const notifications: JsonRpcNotification[] = [];
      const client = await connected(transport, { onNotification: (n) => notifications.push(n) });
      expect({ era: client.era, version: client.protocolVersion, server: client.serverInfo?.name }).toEqual({
        era: "modern",
        version: MODERN,
        server: "cat-code-modern-fixture",
      });
      expect(client.instructions).toContain("2026-07-28");
      // The listen stream is acknowledged before a change is announced on it.
      await waitFor(() => notifications.some((n) => n.method === "notifications/subscriptions/acknowledged"), "the listen acknowledgement");
      expect((await client.callTool("echo", { text: "hi" })).content[0]?.text).toBe("hi");
      await client.callTool("touch_tools", {});
      await waitFor(() => notifications.some((n) => n.method === "notifications/tools/list_changed"), "tools/list_changed through the listen stream");

      const requests = recorded(file).filter((r) => r.id !== undefined && r.httpMethod !== "GET");
      expect(requests.map((r) => r.method)).toEqual(["server/discover", "subscriptions/listen", "tools/call", "tools/call"]);
      for (const request of requests) {
        expect(request._meta).toMatchObject({
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "cat-code" },
          "io.modelcontextprotocol/logLevel": expect.any(String),
        });
      }
      if (mode === "http") {
        for (const request of requests) {
          expect(request.headers["mcp-protocol-version"]).toBe(MODERN);
          expect(request.headers["mcp-method"]).toBe(request.method);
          expect(request.headers["mcp-session-id"]).toBeUndefined();
        }
        expect(requests.filter((r) => r.method === "tools/call").map((r) => r.headers["mcp-name"])).toEqual(["echo", "touch_tools"]);
        await client.close();
        // No standalone GET stream, no DELETE: every HTTP request was a POST.
        expect(recorded(file).every((r) => r.httpMethod === "POST")).toBe(true);
      }
    });
  }
});

describe("the SDK v2 dual-era server gets the newest", () => {
  test("stdio: modern", async () => {
    const client = await connected(stdio(BUN, SDK_V2_SERVER, "--stdio"));
    expect({ era: client.era, server: client.serverInfo?.name }).toEqual({ era: "modern", server: "sdk-v2-fixture" });
    expect((await client.callTool("echo", { text: "v2" })).content[0]?.text).toBe("v2");
  });

  test("http: modern", async () => {
    const server = await httpServer([BUN, SDK_V2_SERVER, "--http"]);
    const client = await connected(new HttpTransport({ url: server.url, headers: {} }));
    expect({ era: client.era, server: client.serverInfo?.name }).toEqual({ era: "modern", server: "sdk-v2-fixture" });
    expect((await client.callTool("echo", { text: "v2" })).content[0]?.text).toBe("v2");
  });
});

describe("legacy servers stay on the handshake", () => {
  const legacy: [string, () => Promise<Transport> | Transport, string][] = [
    ["the bash echo server", () => stdio(ECHO_SERVER), "echo"],
    ["an SDK v1 stdio server", () => stdio(BUN, SDK_STDIO_SERVER), "echo"],
    ["server-everything (stdio)", () => stdio(BUN, EVERYTHING_SERVER, "stdio"), "echo"],
    [
      "an SDK v1 Streamable HTTP server",
      async () => new HttpTransport({ url: (await httpServer([BUN, SDK_V1_HTTP_SERVER], { ready: /PORT (\d+)/, path: "/mcp" })).url, headers: {} }),
      "echo",
    ],
  ];
  for (const [name, make, tool] of legacy) {
    test(name, async () => {
      const client = await connected(await make());
      expect(client.era).toBe("legacy");
      expect(client.protocolVersion).not.toBe(MODERN);
      expect((await client.listTools()).some((t) => t.name === tool)).toBe(true);
    });
  }
});

test(`a stdio server silent on server/discover is legacy once the ${PROBE_WINDOW_MS} ms window passes`, async () => {
  const file = join(tempDir(), "silent.jsonl");
  // Answers initialize and nothing else, as some legacy servers do before the handshake.
  const script = `while IFS= read -r line; do printf '%s\\n' "$line" >> "${file}"; case "$line" in *'"method":"initialize"'*)
    id=$(sed -n 's/.*"id":\\([0-9]*\\).*/\\1/p' <<<"$line")
    printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"silent","version":"1"}}}\\n' "$id";; esac; done`;
  const clock = new FakeClock();
  const client = new McpClient(stdio("bash", "-c", script), { clock, timeoutMs: 10_000 });
  cleanup.push(() => client.close());
  const connecting = client.connect();
  await waitFor(() => recorded(file).some((m) => m.method === "server/discover"), "the probe");
  clock.advance(PROBE_WINDOW_MS - 1);
  // Not yet: the window has 1 ms left (and its timeout group's window of up to 10 ms).
  expect(recorded(file).some((m) => m.method === "initialize")).toBe(false);
  clock.advance(11);
  await connecting;
  expect(client.era).toBe("legacy");
  expect(client.protocolVersion).toBe("2025-06-18");
  const methods = recorded(file).map((m) => m.method);
  expect(methods.slice(0, 3)).toEqual(["server/discover", "notifications/cancelled", "initialize"]);
});

test("a modern stdio server that misses the window (still starting) refuses initialize, and is asked again: modern", async () => {
  const file = join(tempDir(), "late.jsonl");
  // The first line (the probe) is swallowed, as if the server had not been listening yet.
  const late = stdio("bash", "-c", `read -r first; exec "${BUN}" "${MODERN_SERVER}" --stdio --record "${file}"`);
  const clock = new FakeClock();
  const client = new McpClient(late, { clock, timeoutMs: 10_000 });
  cleanup.push(() => client.close());
  const connecting = client.connect();
  await waitFor(() => clock.pending() > 0, "the probe's timeout");
  clock.advance(PROBE_WINDOW_MS + 10);
  await connecting;
  expect(client.era).toBe("modern");
  const methods = recorded(file).map((m) => m.method);
  expect(methods.slice(0, 3)).toEqual(["notifications/cancelled", "initialize", "server/discover"]);
});
