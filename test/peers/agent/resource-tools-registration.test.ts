import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { allowAll } from "../../../src/agent/permission.ts";
import { parseServerEntry } from "../../../src/mcp/config/load-config.ts";
import { McpToolPool } from "../../../src/mcp/pool/tool-pool.ts";
import { AgentSession } from "../../../src/repl/agent-session.ts";
import { BUN, ECHO_SERVER, REPO, tempDir } from "../../helpers/paths.ts";

/** AgentSession offers list_mcp_resources and read_mcp_resource only while a connected server offers resources. */
const PICTURE_SERVER = join(REPO, "fixtures/picture-server.ts");
const FILESYSTEM_SERVER = join(REPO, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

let session: AgentSession | undefined;
afterEach(() => session?.close());

function sessionWith(servers: Record<string, object>): AgentSession {
  const entries = Object.entries(servers).map(([name, config]) => parseServerEntry(name, config, "flag", "test", {}));
  session = new AgentSession({ model: "m", cwd: tempDir(), pool: new McpToolPool(entries), permissions: allowAll });
  return session;
}

const resourceTools = (s: AgentSession) => s.registry.list().map((t) => t.name).filter((name) => name.includes("mcp_resource"));

test("servers without resources (the echo server, server-filesystem): no resource tools", async () => {
  const s = sessionWith({ echo: { command: ECHO_SERVER }, fs: { command: BUN, args: [FILESYSTEM_SERVER, REPO] } });
  const summary = await s.connectMcp();
  expect(summary.connected).toBe(2);
  expect(resourceTools(s)).toEqual([]);
}, 30_000);

test("a server with resources: both tools once startup is done, and gone once no server offers resources", async () => {
  const s = sessionWith({ pic: { command: BUN, args: [PICTURE_SERVER] } });
  expect(resourceTools(s)).toEqual([]);
  await s.connectMcp();
  expect(resourceTools(s)).toEqual(["list_mcp_resources", "read_mcp_resource"]);
  await s.pool.closeAll();
  s.syncResourceTools();
  expect(resourceTools(s)).toEqual([]);
}, 30_000);
