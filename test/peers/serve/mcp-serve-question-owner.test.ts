/**
 * Issue 31, through the compiled binary: a handshake-era upstream over Streamable HTTP asks its
 * question (`elicitation/create`) on the response stream of the call it belongs to, and `mcp serve`
 * puts it to the client that made that call, even while an older call of another client runs on
 * the same server (over stdio, where nothing says which call asks, the oldest would get it). The
 * upstream is the SDK v1 server over HTTP; two SDK v1 clients call it through `mcp serve --http`.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { compiledBinary } from "../../helpers/binary.ts";
import { spawnAnnounced, type AnnouncedProcess } from "../../helpers/listening-fixture.ts";
import { resultText, servedOverHttp, type ServedHttp } from "../../helpers/served-http.ts";
import { BUN, REPO, writeConfig } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

const SDK_HTTP_SERVER = join(REPO, "fixtures", "http", "sdk-http-server.ts");
let upstream: AnnouncedProcess<"ignore">;
let served: ServedHttp;

beforeAll(async () => {
  const binary = await compiledBinary();
  upstream = await spawnAnnounced([BUN, SDK_HTTP_SERVER, "--mode", "sse", "--ask-pair"], { ready: /PORT (\d+)/, stdin: "ignore", label: "the SDK v1 HTTP server" });
  const config = writeConfig({ pair: { type: "http", url: `http://127.0.0.1:${upstream.match[1]}/mcp` } });
  served = await servedOverHttp([binary, "mcp", "serve", "--http", "--mcp-config", config]);
}, 120_000);
afterAll(async () => {
  await served?.stop();
  upstream?.child.kill("SIGTERM");
  await upstream?.child.exited;
});


/** A handshake client over HTTP that answers every question with its own name, and keeps what it was asked. */
async function answeringClient(name: string): Promise<{ client: ClientV1; asked: string[] }> {
  const asked: string[] = [];
  const client = new ClientV1({ name, version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { name } };
  });
  await client.connect(new HttpV1(served.url, { requestInit: served.requestInit }));
  return { client, asked };
}

test("two clients' concurrent calls to one HTTP upstream: each client is asked its own call's question", async () => {
  const first = await answeringClient("first");
  const second = await answeringClient("second");
  try {
    const older = first.client.callTool({ name: "pair__ask_pair", arguments: { who: "A" } });
    // The second call reaches the upstream after the first, so it is the younger call that asks first.
    await waitFor(() => upstream.output().includes("ARRIVED A"), () => `the first call at the upstream; it printed: ${upstream.output()}`);
    const younger = second.client.callTool({ name: "pair__ask_pair", arguments: { who: "B" } });
    expect(resultText(await younger)).toBe("B was answered by second");
    expect(resultText(await older)).toBe("A was answered by first");
    expect(first.asked).toEqual(["pair: A question for A"]);
    expect(second.asked).toEqual(["pair: A question for B"]);
  } finally {
    await Promise.all([first.client.close(), second.client.close()]);
  }
}, 60_000);
