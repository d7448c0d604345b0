import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { WarmConnections } from "../../../src/keeper/warm-connections.ts";
import type { ServerLogEntry } from "../../../src/mcp/client/server-log.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, REPO, tempDir } from "../../helpers/paths.ts";
import { stdioServer } from "../../helpers/keeper-test-client.ts";

/** The keeper's connections, in this process: sharing, ordering, failures, log lines. */
const opened: WarmConnections[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((warm) => warm.closeAll()));
});

function connections(): WarmConnections {
  const warm = new WarmConnections({ version: "test", env: {} });
  opened.push(warm);
  return warm;
}

function recording() {
  const file = join(tempDir(), "record.ndjson");
  return { file, initializes: () => (existsSync(file) ? readFileSync(file, "utf8").match(/"method":"initialize"/g)?.length ?? 0 : 0) };
}

test("two commands connecting the same entry at once share one server", async () => {
  const warm = connections();
  const record = recording();
  const server = stdioServer("chaos", BUN, [CHAOS_SERVER, `--record=${record.file}`]);
  const [a, b] = await Promise.all([
    warm.connect([server], [REPO], { socket: {}, onLog: () => {} }),
    warm.connect([server], [REPO], { socket: {}, onLog: () => {} }),
  ]);
  expect(a![0]!.status.state).toBe("connected");
  expect(b![0]!.fingerprint).toBe(a![0]!.fingerprint);
  expect(record.initializes()).toBe(1);
  expect(warm.size).toBe(1);
});

test("statuses come back in the order asked; a server that failed is not kept", async () => {
  const warm = connections();
  const connected = await warm.connect(
    [stdioServer("broken", BUN, [CHAOS_SERVER, "--crash=before-handshake"]), stdioServer("echo", ECHO_SERVER), stdioServer("missing", "/nonexistent/server")],
    [REPO],
    { socket: {}, onLog: () => {} },
  );
  expect(connected.map((c) => [c.status.name, c.status.state])).toEqual([
    ["broken", "failed"],
    ["echo", "connected"],
    ["missing", "failed"],
  ]);
  expect(warm.info().map((c) => c.name)).toEqual(["echo"]);
});

test("a server's log line goes once to each socket with something in flight", async () => {
  const warm = connections();
  const server = stdioServer("chaos", BUN, [CHAOS_SERVER, "--notifications"]);
  const heard = { first: [] as ServerLogEntry[], second: [] as ServerLogEntry[] };
  const firstSocket = {};
  await Promise.all([
    // Two operations of one socket: the socket hears each line once.
    warm.connect([server], [REPO], { socket: firstSocket, onLog: (entry) => heard.first.push(entry) }),
    warm.connect([server], [REPO], { socket: firstSocket, onLog: (entry) => heard.first.push(entry) }),
    warm.connect([server], [REPO], { socket: {}, onLog: (entry) => heard.second.push(entry) }),
  ]);
  // The handshake and the tool list: a line before each answer.
  expect(heard.first.length).toBeGreaterThanOrEqual(2);
  expect(heard.second).toEqual(heard.first);
  expect(heard.first[0]).toEqual({ server: "chaos", level: "info", data: "hello" });
});

test("a connection whose server died is replaced at the next connect", async () => {
  const warm = connections();
  const record = recording();
  const server = stdioServer("chaos", BUN, [CHAOS_SERVER, `--record=${record.file}`, "--exit-silently-on-call"]);
  const [first] = await warm.connect([server], [REPO], { socket: {}, onLog: () => {} });
  const call = warm.call(first!.fingerprint, "echo", { text: "x" }, { socket: {}, onLog: () => {}, signal: new AbortController().signal, elicitation: async () => ({ action: "decline" }), onProgress: () => {} });
  await expect(call).rejects.toMatchObject({ code: -32000 });
  expect(warm.info()[0]!.state).toBe("failed");
  const [second] = await warm.connect([server], [REPO], { socket: {}, onLog: () => {} });
  expect(second!.status.state).toBe("connected");
  expect(record.initializes()).toBe(2);
  expect(warm.info().map((c) => c.state)).toEqual(["connected"]);
});

test("a root that no longer exists fails that server, not the connect", async () => {
  const warm = connections();
  const [connected] = await warm.connect([stdioServer("echo", ECHO_SERVER)], ["/no/such/root"], { socket: {}, onLog: () => {} });
  expect(connected!.status).toMatchObject({ name: "echo", state: "failed", reason: expect.stringMatching(/^cannot start it in the keeper: /) });
  expect(warm.size).toBe(0);
});

test("a command that answers questions and one that does not get a connection each, each declaring what its own pool would", async () => {
  const warm = connections();
  const record = recording();
  const server = stdioServer("chaos", BUN, [CHAOS_SERVER, `--record=${record.file}`]);
  const listener = { socket: {}, onLog: () => {} };
  const [plain] = await warm.connect([server], [REPO], listener, false);
  const [answering] = await warm.connect([server], [REPO], listener, true);
  const [plainAgain] = await warm.connect([server], [REPO], listener, false);
  expect(answering!.fingerprint).not.toBe(plain!.fingerprint);
  expect(plainAgain!.fingerprint).toBe(plain!.fingerprint);
  const declared = readFileSync(record.file, "utf8")
    .split("\n")
    .filter((line) => line.includes('"method":"initialize"'))
    .map((line) => Object.keys((JSON.parse(line) as { params: { capabilities: object } }).params.capabilities).sort());
  expect(declared).toEqual([["roots"], ["elicitation", "roots"]]);
});
