import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import * as v from "valibot";
import { WarmConnections } from "../../../src/keeper/warm-connections.ts";
import { ServerConfig } from "../../../src/mcp/config/server-config.ts";
import { ServerPool, type ServerStatus } from "../../../src/mcp/pool/server-pool.ts";
import { EVERYTHING_SERVER, REPO, tempDir } from "../../helpers/paths.ts";
import { stdioServer } from "../../helpers/keeper-test-client.ts";

/**
 * A stdio server started by the keeper starts as the command would have started it: with the
 * launch env the command computed (nothing of the keeper's own), in the command's folder (or the
 * entry's `cwd`, relative to it).
 */
const opened: WarmConnections[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((warm) => warm.closeAll()));
});

function connections(): WarmConnections {
  const warm = new WarmConnections({ version: "test", env: {} });
  opened.push(warm);
  return warm;
}

const listener = { socket: {}, onLog: () => {} };
const callListener = { ...listener, signal: new AbortController().signal, elicitation: async () => ({ action: "decline" as const }), onProgress: () => {} };

test("the child gets exactly the launch env: none of the keeper's own variables", async () => {
  process.env.KEEPERS_OWN_VARIABLE = "should not leak";
  const warm = connections();
  const server = stdioServer("everything", "node", [EVERYTHING_SERVER, "stdio"]);
  server.launch.env = { PATH: process.env.PATH!, ONLY_THIS: "yes" };
  const [connected] = await warm.connect([server], [REPO], listener);
  expect(connected!.status.state).toBe("connected");
  const result = await warm.call(connected!.fingerprint, "get-env", {}, callListener);
  const env = JSON.parse((result.content[0] as { text: string }).text) as Record<string, string>;
  expect(env.ONLY_THIS).toBe("yes");
  expect(env.KEEPERS_OWN_VARIABLE).toBeUndefined();
  delete process.env.KEEPERS_OWN_VARIABLE;
});

test("a relative command runs from the launch cwd, and an entry's relative cwd is taken from it", async () => {
  const warm = connections();
  const fromCwd = stdioServer("here", "./echo-server.sh", [], {}, join(REPO, "fixtures"));
  const fromEntry = stdioServer("there", "./echo-server.sh", [], { cwd: "fixtures" }, REPO);
  const elsewhere = stdioServer("nowhere", "./echo-server.sh", [], {}, tempDir());
  const statuses = (await warm.connect([fromCwd, fromEntry, elsewhere], [REPO], listener)).map((c) => c.status.state);
  expect(statuses).toEqual(["connected", "connected", "failed"]);
});

test("keepAlive is a whole number of seconds, 0 or more", () => {
  const parse = (keepAlive: unknown) => v.safeParse(ServerConfig, { type: "stdio", command: "x", keepAlive });
  expect(parse(0).success).toBe(true);
  expect(parse(3600).success).toBe(true);
  expect(parse(-1).issues?.[0]?.message).toBe('"keepAlive" must be 0 (no keeper) or more seconds');
  expect(parse(1.5).issues?.[0]?.message).toBe('"keepAlive" must be a whole number of seconds');
  expect(parse("10").issues?.[0]?.message).toBe('"keepAlive" must be a number of seconds');
});

test("a server that cannot start fails with the reason a cold command gives, word for word", async () => {
  for (const extra of [{}, { cwd: "fixtures" }]) {
    const server = stdioServer("missing", "./no-such-server", [], extra, REPO);
    const cold = new ServerPool([server.entry]);
    await cold.connectAll();
    const [warm] = await connections().connect([server], [REPO], listener);
    const reason = (status: ServerStatus | undefined) => (status?.state === "failed" ? status.reason : status?.state);
    expect(reason(warm!.status)).toBe(reason(cold.status()[0]));
    expect(reason(warm!.status)).toStartWith("command not found: './no-such-server'");
  }
});
