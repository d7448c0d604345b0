/**
 * A server of resources and prompts only (it declares no `tools`) is CONNECTED with no tools: it is
 * not asked tools/list, which it would refuse. One that declares nothing at all is still asked.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../../src/mcp/pool/server-pool.ts";
import { mayHaveTools } from "../../../../src/mcp/client/server-features.ts";
import { BUN, REPO } from "../../../helpers/paths.ts";

const RESOURCE_SERVER = join(REPO, "fixtures", "resources", "resource-server.ts");

const entry = (name: string, args: string[]): ServerEntry => ({
  name,
  scope: "user",
  source: "test",
  ok: true,
  config: { type: "stdio", command: BUN, args: [RESOURCE_SERVER, ...args], env: { PATH: process.env.PATH ?? "" } },
});

test("a server that declares resources and prompts but no tools connects with no tools and keeps its resources", async () => {
  const pool = new ServerPool([entry("docs", ["--no-tools"])]);
  try {
    await pool.connectAll();
    const [status] = pool.status();
    expect(status?.state).toBe("connected");
    expect(status?.state === "connected" && status.tools).toEqual([]);
    const client = pool.client("docs")!;
    expect((await client.listResources()).length).toBeGreaterThan(0);
  } finally {
    await pool.closeAll();
  }
});

test("tools/list is skipped only for a server that declared other features and not tools", () => {
  expect(mayHaveTools({ resources: {} })).toBe(false);
  expect(mayHaveTools({ prompts: {}, logging: {} })).toBe(false);
  expect(mayHaveTools({ tools: {}, resources: {} })).toBe(true);
  expect(mayHaveTools({})).toBe(true);
  expect(mayHaveTools({ logging: {} })).toBe(true);
  expect(mayHaveTools(undefined)).toBe(true);
});
