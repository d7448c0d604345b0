/**
 * `mcp call` checks `--json` and `key=value` arguments against the tool's input schema before
 * anything is sent (exit 2, a message naming the argument), and sends what it cannot or should not
 * judge: a required argument with a default, a schema the validator cannot use. The server is a real
 * HTTP server on 127.0.0.1 that records every request, so "nothing was sent" is seen, not assumed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { result, ScriptedServer, textResult } from "../../../fixtures/http/scripted-server.ts";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";

const TOOLS = [
  { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
  { name: "screenshot", inputSchema: { type: "object", properties: { scale: { type: "number", default: 1 } }, required: ["scale"] } },
  { name: "remote", inputSchema: { type: "object", properties: { anything: { $ref: "https://schemas.example/remote.json" } } } },
  { name: "evil", inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 1, description: "\u001b]0;pwned\u0007" } }, required: ["n"] } },
];

describe.each(KEEPER_MODES)("%s", (mode) => {
  const { runBinary } = useKeeperMode(mode);

  let server: ScriptedServer;
  beforeAll(() => {
    server = new ScriptedServer(({ method, body }) => {
      if (method !== "POST") return undefined;
      if (body?.method === "tools/list") return Response.json(result(body.id, { tools: TOOLS }));
      if (body?.method === "tools/call") return Response.json(textResult(body.id, `called ${body.params.name} ${JSON.stringify(body.params.arguments)}`));
      return undefined;
    });
  });
  afterAll(() => server.stop());

  /** The server's url with a query of its own: a warm keeper reuses a connection only for the same url, so each test reaches the server anew. */
  let urls = 0;
  const freshUrl = () => `${server.url}?test=${++urls}`;

  function calls(tool: string): unknown[] {
    return server.posts("tools/call").filter((r) => r.body.params.name === tool).map((r) => r.body.params.arguments);
  }

  describe("refused before sending: exit 2 and a message naming the argument", () => {
    const refusals: [string, string[], string][] = [
      ["--json with a string for a number", ["add", "--json", '{"a":"x","b":1}'], `error: argument 'a': expected number, got a string "x"`],
      ["--json without a required argument", ["add", "--json", '{"a":1}'], "error: missing required argument 'b'"],
      ["key=value below the minimum", ["evil", "n=0"], "error: argument 'n' does not match the tool's input schema: 0 is less than 1"],
    ];
    for (const [what, args, message] of refusals) {
      test(what, async () => {
        const before = server.posts("initialize").length;
        const { exitCode, stdout, stderr } = await runBinary(["mcp", "call", "--url", freshUrl(), ...args]);
        expect(stderr).toStartWith(message);
        expect(stderr).not.toContain("\u001b");
        expect(stderr.trim().split("\n")).toHaveLength(1);
        expect([exitCode, stdout]).toEqual([2, ""]);
        // The server was reached (its schema was read), and no call went out.
        expect(server.posts("initialize").length).toBe(before + 1);
        expect(calls(args[0]!)).toEqual([]);
      });
    }
  });

  describe("sent, and the server decides", () => {
    test("valid arguments, as --json and as key=value", async () => {
      const json = await runBinary(["mcp", "call", "--url", server.url, "add", "--json", '{"a":1,"b":2}']);
      const pairs = await runBinary(["mcp", "call", "--url", server.url, "add", "a=3", "b=4"]);
      expect([json.exitCode, json.stdout, pairs.exitCode, pairs.stdout]).toEqual([0, 'called add {"a":1,"b":2}\n', 0, 'called add {"a":3,"b":4}\n']);
    });

    test("a required argument with a default, left out", async () => {
      const { exitCode, stdout } = await runBinary(["mcp", "call", "--url", server.url, "screenshot", "--json", "{}"]);
      expect([exitCode, stdout]).toEqual([0, "called screenshot {}\n"]);
      expect(calls("screenshot")).toEqual([{}]);
    });

    test("a schema the validator cannot resolve (a remote $ref)", async () => {
      const { exitCode, stdout } = await runBinary(["mcp", "call", "--url", server.url, "remote", "--json", '{"anything":1}']);
      expect([exitCode, stdout]).toEqual([0, 'called remote {"anything":1}\n']);
    });

    test("argument names an object's prototype has (prototype, constructor, __proto__) are sent like any other", async () => {
      const args = '{"a":1,"b":2,"prototype":"x","constructor":"y","__proto__":{"z":1}}';
      const { exitCode, stdout } = await runBinary(["mcp", "call", "--url", freshUrl(), "add", "--json", args]);
      expect([exitCode, stdout]).toEqual([0, `called add ${args}\n`]);
    });
  });
});
