/**
 * A URL's userinfo and query values may be secrets (`https://u:${PW}@host/mcp?api_key=${TOKEN}`):
 * every message, field and log line of the HTTP transport shows the URL redacted. Each failure the
 * transport can report is provoked once, and everything it said is searched for the secrets.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { log } from "../../../../src/log.ts";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { ScriptedServer, sseEvent, sseResponse, textResult } from "../../../../fixtures/http/scripted-server.ts";

const SECRETS = ["PW-SECRET", "Q-SECRET", "ELSEWHERE-SECRET"];

/** What each tool name makes the server do with a tools/call. */
const FAULTS: Record<string, (id: number, elsewhere: string) => Response> = {
  "server-error": () => new Response("<h1>oops</h1>", { status: 500, headers: { "Content-Type": "text/html" } }),
  "wrong-type": () => new Response("words", { headers: { "Content-Type": "text/plain" } }),
  "bad-json": () => new Response("{nope", { headers: { "Content-Type": "application/json" } }),
  "no-response": () => Response.json({ jsonrpc: "2.0", method: "notifications/message", params: {} }),
  "no-event-id": () => sseResponse(": bye\n\n"),
  "never-resumes": () => sseResponse(sseEvent({ id: "e-1", retry: 5, data: "" })),
  "too-big": (id) => Response.json(textResult(id, "z".repeat(5000))),
  "too-big-event": (id) => sseResponse(sseEvent({ data: textResult(id, "z".repeat(5000)) })),
  "cross-origin": (_, elsewhere) => new Response(null, { status: 307, headers: { Location: `${elsewhere}?t=ELSEWHERE-SECRET` } }),
  "forbidden": () => new Response("no access", { status: 403, headers: { "WWW-Authenticate": 'Bearer realm="x"' } }),
  "expired-twice": () => new Response(null, { status: 404 }),
};

let server: ScriptedServer;
let elsewhere: ScriptedServer;
const logged: string[] = [];
let level: number;

beforeAll(() => {
  elsewhere = new ScriptedServer(() => undefined);
  server = new ScriptedServer(({ method, body }) => {
    if (method === "GET") return new Response("resume refused", { status: 503 });
    if (body?.method !== "tools/call") return undefined;
    return FAULTS[body.params.name]!(body.id, elsewhere.url);
  });
  // Debug lines too: they reach stderr with --verbose.
  level = log.level;
  log.level = 4;
  log.setReporters([{ log: (entry) => logged.push(entry.args.map(String).join(" ")) }]);
});

afterAll(async () => {
  log.setReporters([]);
  log.level = level;
  await Promise.all([server.stop(), elsewhere.stop()]);
});

/** The server's URL with secrets in its userinfo and query. */
function secretUrl(base: string): string {
  const url = new URL(base);
  url.username = "alice";
  url.password = "PW-SECRET";
  url.search = "?api_key=Q-SECRET&mode=full";
  return url.href;
}

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe("URLs in the HTTP transport's messages", () => {
  test("every failure names the server by its redacted URL, never by its secrets", async () => {
    const url = secretUrl(server.url);
    const shown = `http://***:***@127.0.0.1:${new URL(server.url).port}/mcp?api_key=***&mode=***`;
    const transport = new HttpTransport({ url, headers: {} }, { maxMessageChars: 4096, defaultRetryMs: 5 });
    expect(transport.description).toBe(`http: ${shown}`);
    const client = new McpClient(transport, { timeoutMs: 10_000 });
    await client.connect();
    const errors: McpError[] = [];
    for (const name of Object.keys(FAULTS)) {
      const error = await client.callTool(name, {}).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect([name, error instanceof McpError]).toEqual([name, true]);
      errors.push(error as McpError);
    }
    await client.close();
    // Each one names the server (or it is the server's own JSON-RPC words, which name nothing).
    for (const error of errors) {
      expectNoSecret(`${error.message} ${error.url ?? ""} ${JSON.stringify(error.data ?? null)}`);
      if (error.url !== undefined) expect(error.url).toBe(shown);
    }
    expect(errors.filter((e) => e.message.includes(shown)).length).toBeGreaterThanOrEqual(Object.keys(FAULTS).length - 1);
    expect(logged.length).toBeGreaterThan(0);
    expectNoSecret(logged.join("\n"));
    expect(elsewhere.requests).toHaveLength(0);
  });

  test("a server that cannot be reached, or an invalid header, is named redacted too", async () => {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const refused = secretUrl(`http://127.0.0.1:${probe.port}/mcp`);
    await probe.stop(true);
    const unreachable = await new McpClient(new HttpTransport({ url: refused, headers: {} })).connect().then(() => { throw new Error("connected"); }, (e: unknown) => e as McpError);
    expect(unreachable.message).toStartWith(`cannot reach http://***:***@127.0.0.1:${new URL(refused).port}/mcp?api_key=***&mode=***: `);
    expect(unreachable.cause).toBeUndefined();
    const badHeader = await new HttpTransport({ url: secretUrl(server.url), headers: { "Bad Name": "v" } }).start().then(() => { throw new Error("started"); }, (e: unknown) => e as McpError);
    expect(badHeader.message).toContain("invalid header 'Bad Name' in the entry for http://***:***@");
    const notHttp = await new HttpTransport({ url: "file:///etc/Q-SECRET", headers: {} }).start().then(() => { throw new Error("started"); }, (e: unknown) => e as McpError);
    expect(notHttp.message).toBe("invalid url in the entry: expected an absolute http:// or https:// URL");
    for (const error of [unreachable, badHeader, notHttp]) expectNoSecret(`${error.message} ${error.url ?? ""}`);
    expectNoSecret(logged.join("\n"));
  });
});
