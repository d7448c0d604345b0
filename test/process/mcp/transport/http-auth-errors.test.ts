import { afterEach, describe, expect, test } from "bun:test";
import { McpClient } from "../../../../src/mcp/client/mcp-client.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { ScriptedServer } from "../../../../fixtures/http/scripted-server.ts";
import { runBinary } from "../../../helpers/binary.ts";
import { tempDir, writeConfig } from "../../../helpers/paths.ts";

const TOKEN = "Bearer sekrit-value-123";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** A server that refuses initialize with `answer`. */
function refusing(answer: () => Response): ScriptedServer {
  const server = new ScriptedServer(({ body }) => (body?.method === "initialize" ? answer() : undefined));
  opened.push({ close: () => server.stop() });
  return server;
}

async function connectError(server: ScriptedServer): Promise<McpError> {
  const client = new McpClient(new HttpTransport({ url: server.url, headers: { Authorization: TOKEN } }));
  opened.push(client);
  const error = await client.connect().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  expect(client.state).toEqual({ status: "failed", reason: (error as Error).message });
  expect((error as Error).message).not.toContain("sekrit");
  return error as McpError;
}

describe("401 and 403 answers", () => {
  test("a 401 shows the first line of the server's reason, then how to give credentials; no OAuth without a challenge", async () => {
    const server = refusing(() => new Response("\n  token expired for user 7  \nat line 2 of the stack\n", { status: 401 }));
    const error = await connectError(server);
    expect(error.message).toBe(
      `the server at ${server.url} answered 401 Unauthorized: token expired for user 7. Set "headers" (for example "Authorization": "Bearer \${TOKEN}") in its entry in mcp.json.`,
    );
    expect(error.status).toBe(401);
    expect(error.url).toBe(server.url);
    expect(error.message).not.toContain("OAuth");
  });

  test("a 401 with a Bearer challenge to an entry with its own Authorization header names the sign-in instead", async () => {
    const server = refusing(
      () => new Response("sign in first", { status: 401, headers: { "WWW-Authenticate": 'Bearer resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource"' } }),
    );
    const error = await connectError(server);
    expect(error.message).toStartWith(`the server at ${server.url} answered 401 Unauthorized: sign in first. Set "headers"`);
    expect(error.message).toContain(`The server asks for an OAuth sign-in (WWW-Authenticate: Bearer): remove the Authorization header from the entry's "headers" and run cat-code mcp login with the server's name.`);
  });

  test("a 401 with another challenge (Basic) does not mention OAuth", async () => {
    const server = refusing(() => new Response(null, { status: 401, headers: { "WWW-Authenticate": 'Basic realm="proxy"' } }));
    const error = await connectError(server);
    expect(error.message).toBe(`the server at ${server.url} answered 401 Unauthorized. Set "headers" (for example "Authorization": "Bearer \${TOKEN}") in its entry in mcp.json.`);
  });

  test("a 403 with a JSON-RPC error keeps its code and words, the status and the url", async () => {
    const server = refusing(() => Response.json({ jsonrpc: "2.0", id: null, error: { code: -32010, message: "key lacks the tools scope" } }, { status: 403 }));
    const error = await connectError(server);
    expect(error.message).toBe(
      `the server at ${server.url} answered 403 Forbidden: key lacks the tools scope. The credentials in the entry's "headers" (Authorization) were refused for this: check the token and its permissions.`,
    );
    expect(error.code).toBe(-32010);
    expect(error.status).toBe(403);
    expect(error.url).toBe(server.url);
  });

  test("a long reason is cut to one short line", async () => {
    const server = refusing(() => new Response(`${"why ".repeat(200)}\nsecond line`, { status: 403 }));
    const error = await connectError(server);
    expect(error.message).toContain(`answered 403 Forbidden: ${"why ".repeat(50).trim()}…. The credentials`);
    expect(error.message).not.toContain("second line");
  });

  test("mcp list shows the server's reason without its terminal escapes", async () => {
    const server = refusing(() => new Response("\u001b]0;pwned\u0007\u001b[2Jkey revoked\u001b[0m\nsecond line", { status: 403 }));
    const config = writeConfig({ remote: { url: server.url, headers: { Authorization: TOKEN } } });
    const { stdout, stderr } = await runBinary(["mcp", "list", "--mcp-config", config], { env: { CAT_CODE_HOME: tempDir() } });
    expect(stdout).toContain("FAILED");
    expect(stdout).toContain("answered 403 Forbidden: key revoked. The credentials");
    expect(stdout + stderr).not.toContain("\u001b");
    expect(stdout + stderr).not.toContain("\u0007");
    expect(stdout + stderr).not.toContain("second line");
    expect(stdout + stderr).not.toContain("sekrit");
  });

  test("mcp call --url: a 403 shows the server's first line (sanitized) and names no headers the entry does not have", async () => {
    // --url has OAuth's authorizer in front of it: the refusal it has no say in must keep its body.
    const server = refusing(() => new Response("\u001b[31mtoken lacks scope repo:write\u001b[0m\nsecond line", { status: 403 }));
    const { exitCode, stdout, stderr } = await runBinary(["mcp", "call", "--url", server.url, "echo", "--json", "{}"], { env: { CAT_CODE_HOME: tempDir() } });
    expect(exitCode).not.toBe(0);
    expect(stderr).toContain(`answered 403 Forbidden: token lacks scope repo:write. Access was refused for this`);
    expect(stdout + stderr).not.toContain('"headers"');
    expect(stdout + stderr).not.toContain("\u001b");
    expect(stdout + stderr).not.toContain("second line");
  });
});
