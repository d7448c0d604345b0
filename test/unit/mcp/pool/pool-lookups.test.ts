import { describe, expect, test } from "bun:test";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../../src/mcp/pool/server-pool.ts";
import { MemoryTransport } from "../../../helpers/memory-transport.ts";

/** A stdio entry whose command names its server; `scope` tells a user's and a project's entry of one name apart. */
const entry = (name: string, command = name, scope: "user" | "project" = "user"): ServerEntry => ({ name, scope, source: "test", ok: true, config: { type: "stdio", command, args: [], env: {} } });

/** Servers whose command says what they offer: "files" offers resources, every other only tools. */
function poolOf(entries: ServerEntry[]) {
  const made: Record<string, MemoryTransport[]> = {};
  const pool = new ServerPool(entries, {
    createTransport: (config) => {
      const command = (config as { command: string }).command;
      const capabilities = command === "files" ? { tools: {}, resources: { subscribe: true } } : { tools: {} };
      const transport = new MemoryTransport({
        initialize: () => ({ protocolVersion: "2025-11-25", capabilities, serverInfo: { name: command, version: "1" } }),
        "tools/list": () => ({ tools: [] }),
      });
      (made[command] ??= []).push(transport);
      return transport;
    },
  });
  return { pool, made };
}

describe("ServerPool.offeredBySome", () => {
  test("true while a connected server offers the feature; false once it is disabled, crashed or closed", async () => {
    const { pool, made } = poolOf([entry("git"), entry("files")]);
    expect(pool.offeredBySome("resources")).toBe(false);
    await pool.connectAll();
    expect(pool.offeredBySome("resources")).toBe(true);
    expect(pool.offeredBySome("resourceSubscriptions")).toBe(true);
    expect(pool.offeredBySome("prompts")).toBe(false);

    await pool.disable("files");
    expect(pool.offeredBySome("resources")).toBe(false);
    await pool.enable("files");
    expect(pool.offeredBySome("resources")).toBe(true);

    made.files!.at(-1)!.crash("gone");
    expect(pool.offeredBySome("resources")).toBe(false);
    await pool.reconnect("files");
    expect(pool.offeredBySome("resources")).toBe(true);

    await pool.closeAll();
    expect(pool.offeredBySome("resources")).toBe(false);
  });

  test("a listener of the connect already hears it offered, and it says what serversOffering says", async () => {
    const { pool } = poolOf([entry("git"), entry("files")]);
    const heard: Array<[string, boolean, number]> = [];
    pool.on("server", (event) => heard.push([event.server, pool.offeredBySome("resources"), pool.serversOffering("resources").length]));
    await pool.connectAll();
    expect(heard.sort()).toEqual([
      ["files", true, 1],
      ["git", false, 0],
    ]);
    await pool.closeAll();
  });

  test("of two entries with one name (a user's and a project's), the one that offers counts", async () => {
    const { pool } = poolOf([entry("docs", "plain", "user"), entry("docs", "files", "project")]);
    await pool.connectAll();
    expect(pool.offeredBySome("resources")).toBe(true);
    expect(pool.serversOffering("resources")).toHaveLength(1);
    await pool.closeAll();
  });
});

describe("ServerPool.statusOf", () => {
  test("the status of the first server of that name, as status() lists it; undefined for no such server", async () => {
    const { pool } = poolOf([entry("docs", "plain", "user"), entry("git"), entry("docs", "files", "project")]);
    expect(pool.statusOf("git")).toMatchObject({ name: "git", state: "pending" });
    await pool.connectAll();
    expect(pool.statusOf("git")).toBe(pool.status()[1]!);
    expect(pool.statusOf("docs")).toBe(pool.status()[0]!);
    expect(pool.statusOf("nope")).toBeUndefined();
    await pool.closeAll();
  });
});
