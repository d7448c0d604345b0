/**
 * SEP-2243 through `cat-code mcp serve --http` (the compiled binary): a served tool whose argument
 * is marked `x-mcp-header` (the conformance reference's `test_custom_header`) is called by the
 * official SDK v2 client speaking 2026-07-28, which mirrors the argument into `Mcp-Param-Region`:
 * mcp serve accepts what a real client sends, and refuses a request whose header disagrees with
 * its body (400, -32020).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { compiledBinary } from "../../helpers/binary.ts";
import { MODERN, modernMeta, post, sentinel } from "../../helpers/raw-peers.ts";
import { servedOverHttp, type ServedHttp } from "../../helpers/served-http.ts";
import { BUN, REPO, writeConfig } from "../../helpers/paths.ts";

const REFERENCE_SERVER = join(REPO, "fixtures", "conformance", "reference-server.ts");
const TOOL = "ref__test_custom_header";
let served: ServedHttp;

beforeAll(async () => {
  const binary = await compiledBinary();
  const config = writeConfig({ ref: { command: BUN, args: [REFERENCE_SERVER] } });
  served = await servedOverHttp([binary, "mcp", "serve", "--http", "--mcp-config", config]);
}, 120_000);
afterAll(() => served?.stop());

test("the SDK v2 client's mirrored header is accepted, plain or base64", async () => {
  const sent: string[] = [];
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    const region = new Headers(init?.headers).get("mcp-param-region");
    if (region !== null) sent.push(region);
    return fetch(input, init);
  };
  const client = new ClientV2({ name: "sdk-v2-http", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new HttpV2(served.url, { requestInit: served.requestInit, fetch: recording }));
  try {
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    await client.listTools();
    const text = async (region: string) => ((await client.callTool({ name: TOOL, arguments: { region } })).content as Array<{ text: string }>)[0]?.text;
    expect(await text("us-west1")).toBe("region: us-west1");
    expect(await text("Zürich ")).toBe("region: Zürich ");
    expect(sent).toEqual(["us-west1", sentinel("Zürich ")]);
  } finally {
    await client.close();
  }
}, 60_000);

test("a header that disagrees with the body, or is missing, is refused with 400 HeaderMismatch", async () => {
  const call = (headers: Record<string, string>) =>
    post(served.url.href, { id: 1, method: "tools/call", params: { name: TOOL, arguments: { region: "us-west1" }, _meta: modernMeta() } }, { Authorization: served.authorization, ...headers });
  for (const headers of [{ "Mcp-Param-Region": "eu-central1" }, {}] as Array<Record<string, string>>) {
    const response = await call(headers);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number; message: string } }).error).toMatchObject({ code: -32020, message: expect.stringContaining("Mcp-Param-Region") });
  }
  expect((await call({ "Mcp-Param-Region": "us-west1" })).status).toBe(200);
}, 60_000);
