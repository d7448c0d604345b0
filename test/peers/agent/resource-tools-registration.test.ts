import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { allowAll } from "../../../src/agent/permission.ts";
import { parseServerEntry } from "../../../src/mcp/config/load-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { AgentRuntime } from "../../../src/repl/agent-runtime.ts";
import { BUN, ECHO_SERVER, REPO, tempDir } from "../../helpers/paths.ts";

/** AgentRuntime offers list_mcp_resources and read_mcp_resource only while a connected server offers resources. */
const PICTURE_SERVER = join(REPO, "fixtures/picture-server.ts");
const FILESYSTEM_SERVER = join(REPO, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

let runtime: AgentRuntime | undefined;
afterEach(() => runtime?.close());

function runtimeWith(servers: Record<string, object>): AgentRuntime {
  const entries = Object.entries(servers).map(([name, config]) => parseServerEntry(name, config, "flag", "test", {}));
  runtime = new AgentRuntime({ model: "m", cwd: tempDir(), pool: new ServerPool(entries), permissions: allowAll });
  return runtime;
}

const resourceTools = (s: AgentRuntime) => s.registry.list().map((t) => t.name).filter((name) => name.includes("mcp_resource"));

test("servers without resources (the echo server, server-filesystem): no resource tools", async () => {
  const s = runtimeWith({ echo: { command: ECHO_SERVER }, fs: { command: BUN, args: [FILESYSTEM_SERVER, REPO] } });
  const summary = await s.connectMcp();
  expect(summary.connected).toBe(2);
  expect(resourceTools(s)).toEqual([]);
}, 30_000);

test("a server with resources: both tools once startup is done, and gone once no server offers resources", async () => {
  const s = runtimeWith({ pic: { command: BUN, args: [PICTURE_SERVER] } });
  expect(resourceTools(s)).toEqual([]);
  await s.connectMcp();
  expect(resourceTools(s)).toEqual(["list_mcp_resources", "read_mcp_resource"]);
  await s.pool.closeAll();
  s.syncResourceTools();
  expect(resourceTools(s)).toEqual([]);
}, 30_000);
