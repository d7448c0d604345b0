/**
 * A server's object keys are its data, and so are a config's: `constructor`, `prototype` and
 * `__proto__` are names like any other, and a schema check must not drop them (valibot's `record`
 * and `looseObject` do). The servers are real: an HTTP server on 127.0.0.1 (`mcp call --raw` prints
 * the whole result, cold and through the keeper) and a stdio process (its environment).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { initializeResult, result, ScriptedServer } from "../../../fixtures/http/scripted-server.ts";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";
import { BUN, CHAOS_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";

/** Every key the test sends inside each object. */
const KEYS = ["constructor", "prototype", "__proto__"];
/** The three keys as members of a JSON object (JSON.parse makes `__proto__` an own key), their values tagged. */
const members = (tag: string): string => KEYS.map((key) => `"${key}":"${tag} ${key}"`).join(",");
const RESULT = `{"content":[{"type":"text","text":"hi",${members("block")},"annotations":{${members("annotations")}}},{"type":"resource","resource":{"uri":"memo://1","text":"r",${members("resource")}}}],"structuredContent":{${members("structured")}},"_meta":{${members("meta")}},${members("result")}}`;

/** The three keys of `object`, if its own, with their values. */
const ownKeys = (object: Record<string, unknown>) => KEYS.map((key) => Object.hasOwn(object, key) && object[key]);
const tagged = (tag: string) => KEYS.map((key) => `${tag} ${key}`);

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe.each(KEEPER_MODES)("%s", (mode) => {
  const cat = useKeeperMode(mode);

  test("mcp call --raw: keys named constructor, prototype and __proto__ anywhere in a tool's result all come out", async () => {
    server = new ScriptedServer(({ body }) => {
      const { id, method } = body ?? {};
      if (method === "initialize") return Response.json(initializeResult(id, { tools: {}, [KEYS[0]!]: {} }));
      if (method === "tools/list") return Response.json(result(id, { tools: [{ name: "keys", inputSchema: { type: "object" } }] }));
      if (method === "tools/call") return new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${RESULT}}`, { headers: { "content-type": "application/json" } });
      return undefined;
    });
    const config = writeConfig({ tricky: { url: server.url } });
    const { exitCode, stdout, stderr } = await cat.runBinary(["mcp", "call", "tricky", "keys", "--raw", "--mcp-config", config]);
    expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: "" });
    const printed = JSON.parse(stdout);
    expect({
      result: ownKeys(printed),
      block: ownKeys(printed.content[0]),
      annotations: ownKeys(printed.content[0].annotations),
      resource: ownKeys(printed.content[1].resource),
      structured: ownKeys(printed.structuredContent),
      meta: ownKeys(printed._meta),
    }).toEqual({
      result: tagged("result"),
      block: tagged("block"),
      annotations: tagged("annotations"),
      resource: tagged("resource"),
      structured: tagged("structured"),
      meta: tagged("meta"),
    });
  });

  test("a config's env with keys named constructor, prototype and __proto__ reaches the stdio server whole", async () => {
    const config = tempDir();
    const path = `${config}/mcp.json`;
    // Written by hand: an object literal's `__proto__` would set the prototype, not a key.
    const entry = `{"command":${JSON.stringify(BUN)},"args":${JSON.stringify([CHAOS_SERVER, `--print-env=${KEYS.join(",")}`, "--crash=before-handshake"])},"env":{${members("env")}}}`;
    await Bun.write(path, `{"mcpServers":{"printer":${entry}}}`);
    const { stdout } = await cat.runBinary(["mcp", "list", "--mcp-config", path], { cwd: tempDir() });
    for (const key of KEYS) expect(stdout).toContain(`env ${key}=env ${key}`);
  });
});
