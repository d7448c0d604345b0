import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallListener } from "../../../src/keeper/warm-connection.ts";
import { WarmConnections } from "../../../src/keeper/warm-connections.ts";
import { McpError } from "../../../src/mcp/mcp-error.ts";
import { createTransport } from "../../../src/mcp/transport/create-transport.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, REPO, tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { stdioServer } from "../../helpers/keeper-test-client.ts";

/**
 * A warm connection whose server refuses its sign-in is retired: the next command connects anew
 * (and sees NEEDS-AUTH, as cold; the OAuth side is in warm-sign-ins.test.ts), a call still under
 * way on it is not cut short, and other servers' connections are untouched. The servers are real
 * processes; only the refusal is played at the transport (stdio has no sign-in to refuse).
 */
const opened: WarmConnections[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((warm) => warm.closeAll()));
});

/** A tools/call with this text is refused as an HTTP server refuses a revoked grant: 401, needs a sign-in. */
const REFUSED = "refused";

function connections(closed: { count: number }): WarmConnections {
  const warm = new WarmConnections({
    version: "test",
    env: {},
    onClosed: () => closed.count++,
    createTransport: (config, context) => {
      const transport = createTransport(config, context);
      const send = transport.send.bind(transport);
      transport.send = (message, options) => {
        const params = "method" in message && message.method === "tools/call" ? (message.params as { arguments?: { text?: string } }) : undefined;
        if (params?.arguments?.text !== REFUSED) return send(message, options);
        return Promise.reject(new McpError(undefined, "MCP server 'a' needs you to sign in: run cat-code mcp login a", { status: 401, kind: "needs-auth" }));
      };
      return transport;
    },
  });
  opened.push(warm);
  return warm;
}

const caller = (): CallListener => ({ socket: {}, onLog: () => {}, signal: new AbortController().signal, elicitation: async () => ({ action: "decline" }), onProgress: () => {} });

test("a call the server refuses for its sign-in retires that connection; a call under way finishes first; other servers keep theirs", async () => {
  const closed = { count: 0 };
  const warm = connections(closed);
  const record = join(tempDir(), "a.ndjson");
  const a = stdioServer("a", BUN, [CHAOS_SERVER, `--record=${record}`]);
  const recordB = join(tempDir(), "b.ndjson");
  const b = stdioServer("b", BUN, [CHAOS_SERVER, `--record=${recordB}`]);
  const [first, other] = await warm.connect([a, b], [REPO], { socket: {}, onLog: () => {} });
  expect([first!.status.state, other!.status.state]).toEqual(["connected", "connected"]);

  // A long call is under way on `a` when another call on it is refused.
  // Held until the test says: it must still be under way while the refused call comes and goes.
  const release = join(tempDir(), "release");
  const sleeping = warm.call(first!.fingerprint, "sleep", { ms: 60_000, until: release }, caller());
  await waitFor(() => existsSync(record) && readFileSync(record, "utf8").includes('"name":"sleep"'), "the sleep call to reach the server");
  const refused = warm.call(first!.fingerprint, "echo", { text: REFUSED }, caller());
  await expect(refused).rejects.toMatchObject({ kind: "needs-auth" });
  expect(warm.info().map((c) => c.name)).toEqual(["b"]);
  expect(closed.count).toBe(0);

  writeFileSync(release, "");
  expect(await sleeping).toMatchObject({ isError: false });
  await waitFor(() => closed.count === 1, "the retired connection to close after its last call");
  await expect(warm.call(first!.fingerprint, "echo", { text: "again" }, caller())).rejects.toThrow("the server's connection in the keeper was closed");

  // The next command connects `a` anew; `b` is the same connection as before.
  const [again, sameOther] = await warm.connect([a, b], [REPO], { socket: {}, onLog: () => {} });
  expect(again!.status.state).toBe("connected");
  expect(readFileSync(record, "utf8").match(/"method":"initialize"/g)).toHaveLength(2);
  expect(sameOther!.status.state).toBe("connected");
  expect(readFileSync(recordB, "utf8").match(/"method":"initialize"/g)).toHaveLength(1);
  expect(closed.count).toBe(1);
}, 20_000);

test("a 403 asking for more scope leaves the connection in place: its sign-in still lists the tools", async () => {
  const warm = new WarmConnections({
    version: "test",
    env: {},
    createTransport: (config, context) => {
      const transport = createTransport(config, context);
      const send = transport.send.bind(transport);
      transport.send = (message, options) =>
        "method" in message && message.method === "tools/call"
          ? Promise.reject(new McpError(undefined, "MCP server 'a' needs more access (scope admin)", { status: 403, kind: "needs-auth" }))
          : send(message, options);
      return transport;
    },
  });
  opened.push(warm);
  const [first] = await warm.connect([stdioServer("a", ECHO_SERVER)], [REPO], { socket: {}, onLog: () => {} });
  await expect(warm.call(first!.fingerprint, "echo", { text: "hi" }, caller())).rejects.toMatchObject({ kind: "needs-auth" });
  expect(warm.info().map((c) => [c.name, c.state])).toEqual([["a", "connected"]]);
});
