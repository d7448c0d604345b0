/**
 * What a server quotes back of the credentials it received reaches the pool's listeners masked: a
 * log message (which the REPL, `mcp call` and the keeper's `log` events print at warning and worse)
 * and a progress message; and each secret is masked in the forms it may be quoted in, derived once
 * from the raw values (no double-encoded ones). A real HTTP server on 127.0.0.1.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { initializeResult, result, ScriptedServer, sseEvent, sseResponse, type RecordedRequest } from "../../../../fixtures/http/scripted-server.ts";
import type { ServerLogEntry } from "../../../../src/mcp/client/server-log.ts";
import { credentialForms, entrySecretValues } from "../../../../src/mcp/config/entry-secrets.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../../src/mcp/pool/server-pool.ts";

const TOKEN = "tok Echo/4410"; // from ${ECHO_TOKEN}: a space and a slash, so its url form differs
const KEY = "key-Literal-7731";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

const quoted = (request: RecordedRequest) => `got Authorization=${request.headers.get("authorization")} X-Api-Key=${request.headers.get("x-api-key")}`;

/** Answers tools/call with a progress and a log message quoting the request's headers, then a result. */
function echoingServer(): ScriptedServer {
  const server = new ScriptedServer((request) => {
    const { id, method, params } = request.body ?? {};
    if (method === "initialize") return Response.json(initializeResult(id, { tools: {}, logging: {} }));
    if (method === "tools/list") return Response.json(result(id, { tools: [{ name: "whoami", inputSchema: { type: "object" } }] }));
    if (method !== "tools/call") return undefined;
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: params._meta.progressToken, progress: 1, message: quoted(request) } };
    const log = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: quoted(request), data: quoted(request) } };
    return sseResponse(sseEvent({ data: progress }) + sseEvent({ data: log }) + sseEvent({ data: result(id, { content: [{ type: "text", text: "done" }] }) }));
  });
  opened.push({ close: () => server.stop() });
  return server;
}

function httpEntry(url: string): ServerEntry {
  const raw = { url, headers: { Authorization: "Bearer ${ECHO_TOKEN}", "X-Api-Key": KEY } };
  const config = { type: "http" as const, url, headers: { Authorization: `Bearer ${TOKEN}`, "X-Api-Key": KEY } };
  return { name: "echo", scope: "user", source: "test", ok: true, config, raw };
}

async function connectedPool(entry: ServerEntry, logs: ServerLogEntry[]) {
  const pool = new ServerPool([entry]);
  pool.on("log", (logged) => logs.push(logged));
  opened.push({ close: () => pool.closeAll() });
  await pool.connectAll();
  const client = pool.client("echo");
  expect(client).toBeDefined();
  return client!;
}

describe("a server that echoes the credentials it received", () => {
  const env = process.env;
  afterEach(() => {
    process.env = env;
  });

  test("in a log message and a progress message: the pool's log listener and the call's progress get them masked", async () => {
    process.env = { ...env, ECHO_TOKEN: TOKEN };
    const logs: ServerLogEntry[] = [];
    const client = await connectedPool(httpEntry(echoingServer().url), logs);
    const messages: string[] = [];
    await client.callTool("whoami", {}, { onProgress: (update) => messages.push(update.message ?? "") });
    expect(messages).toEqual(["got Authorization=*** X-Api-Key=***"]);
    expect(logs).toEqual([{ server: "echo", level: "info", logger: "got Authorization=*** X-Api-Key=***", data: "got Authorization=*** X-Api-Key=***" }]);
  });

  test("each secret's forms are derived once from the raw values: whole, after its scheme, url-encoded; never encoded twice", async () => {
    process.env = { ...env, ECHO_TOKEN: TOKEN };
    const entry = httpEntry(echoingServer().url);
    expect(entrySecretValues(entry)).toEqual([TOKEN, `Bearer ${TOKEN}`, KEY]);
    const client = await connectedPool(entry, []);
    const forms = client.secretValues();
    expect(new Set(forms)).toEqual(new Set(credentialForms([TOKEN, `Bearer ${TOKEN}`, KEY])));
    expect(forms).toContain(encodeURIComponent(TOKEN));
    expect(forms).not.toContain(encodeURIComponent(encodeURIComponent(TOKEN)));
  });
});
