import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ElicitationRequest } from "../../../../src/mcp/client/elicitation.ts";
import { EraMemory } from "../../../../src/mcp/client/era-memory.ts";
import type { McpClientOptions } from "../../../../src/mcp/client/mcp-client.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { ServerPool, type ServerPoolOptions } from "../../../../src/mcp/pool/server-pool.ts";
import { statusToJson } from "../../../../src/terminal/render-status.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";
import { tempDir } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const config = (name: string) => ({ type: "stdio" as const, command: name, args: [], env: {} });
const entry = (name: string): ServerEntry => ({ name, scope: "user", source: "test", ok: true, config: config(name) });

function memoryPool(names: string[], options: ServerPoolOptions = {}) {
  return new ServerPool(names.map(entry), {
    ...options,
    createTransport: () => new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [] }) }),
  });
}

/** The options the pool gave a server's client (the client acts on them; here the wiring shows). */
function clientOptions(pool: ServerPool, name: string): McpClientOptions {
  return (pool.client(name) as unknown as { options: McpClientOptions }).options;
}

const question = (server: string): ElicitationRequest => ({
  server,
  mode: "form",
  message: "What is your name?",
  requestedSchema: { type: "object", properties: {} },
  form: { fields: [] },
});

describe("the pool names each client and hands it who answers the servers' questions", () => {
  test("each client is named by its config name", async () => {
    const pool = memoryPool(["files", "db"]);
    try {
      await pool.connectAll();
      expect([clientOptions(pool, "files").name, clientOptions(pool, "db").name]).toEqual(["files", "db"]);
    } finally {
      await pool.closeAll();
    }
  });

  test("without an answerer no client is given one (so none declares elicitation)", async () => {
    const pool = memoryPool(["files"]);
    try {
      await pool.connectAll();
      expect(clientOptions(pool, "files").elicitation).toBeUndefined();
    } finally {
      await pool.closeAll();
    }
  });

  test("a question goes to whoever answers now: a front end takes the questions over after the pool is made (the REPL does), and gives them back", async () => {
    const pool = memoryPool(["files"], { elicitation: async () => ({ action: "decline" }) });
    try {
      await pool.connectAll();
      const ask = clientOptions(pool, "files").elicitation!;
      expect(await ask(question("files"))).toEqual({ action: "decline" });
      const signals: (AbortSignal | undefined)[] = [];
      const signal = new AbortController().signal;
      const release = pool.answerQuestionsWith(async (request, given) => {
        signals.push(given);
        return { action: "accept", content: { asked: request.server } };
      });
      expect(await ask(question("files"), signal)).toEqual({ action: "accept", content: { asked: "files" } });
      expect(signals).toEqual([signal]);
      release();
      expect(await ask(question("files"))).toEqual({ action: "decline" });
    } finally {
      await pool.closeAll();
    }
  });
});

describe("the pool hands each client its slice of the era memory", () => {
  test("remember and forget reach $CAT_CODE_HOME under the entry's own key; closeAll waits for the write", async () => {
    const home = tempDir();
    const memory = new EraMemory({ env: { CAT_CODE_HOME: home } });
    const pool = memoryPool(["files", "db"], { eraMemory: memory });
    await pool.connectAll();
    const files = clientOptions(pool, "files").eraMemory!;
    const db = clientOptions(pool, "db").eraMemory!;
    expect(files.recall()).toBeUndefined();
    files.remember({ era: "modern", version: "2026-07-28" });
    db.remember({ era: "legacy", version: "2025-11-25" });
    // The handles return at once; the pool owns the writes and finishes them before it is closed.
    await pool.closeAll();
    const later = new EraMemory({ env: { CAT_CODE_HOME: home } });
    expect(later.recall(config("files"))).toMatchObject({ era: "modern", version: "2026-07-28" });
    expect(later.recall(config("db"))).toMatchObject({ era: "legacy", version: "2025-11-25" });
    expect(Object.keys(JSON.parse(readFileSync(join(home, "protocol-eras.json"), "utf8")).servers)).toHaveLength(2);
  });

  test("closeAll resolves only once a write the handles started is done (an exit mid-write would leave its lock)", async () => {
    let finishWrite!: () => void;
    const writing = new Promise<void>((resolve) => (finishWrite = resolve));
    const memory = { recall: () => undefined, remember: () => writing, forget: async () => {} } as unknown as EraMemory;
    const pool = memoryPool(["files"], { eraMemory: memory });
    await pool.connectAll();
    const client = pool.client("files")!;
    clientOptions(pool, "files").eraMemory!.remember({ era: "legacy", version: "2025-11-25" });
    let closed = false;
    const closing = pool.closeAll().then(() => (closed = true));
    await waitFor(() => client.state.status === "closed", "the client closed");
    // A macrotask later every continuation of the clients' close has run: only the write holds closeAll.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    finishWrite();
    await closing;
    expect(closed).toBe(true);
  });

  test("forget drops only that entry's record", async () => {
    const home = tempDir();
    const memory = new EraMemory({ env: { CAT_CODE_HOME: home } });
    await memory.remember(config("files"), { era: "modern", version: "2026-07-28" });
    await memory.remember(config("db"), { era: "legacy", version: "2025-11-25" });
    const pool = memoryPool(["files", "db"], { eraMemory: memory });
    await pool.connectAll();
    expect(clientOptions(pool, "files").eraMemory!.recall()).toMatchObject({ era: "modern" });
    clientOptions(pool, "files").eraMemory!.forget();
    await pool.closeAll();
    expect(memory.recall(config("files"))).toBeUndefined();
    expect(memory.recall(config("db"))).toMatchObject({ era: "legacy" });
  });

  test("a pool made without a memory hands out none and writes nothing", async () => {
    const home = tempDir();
    const pool = memoryPool(["files"]);
    await pool.connectAll();
    expect(clientOptions(pool, "files").eraMemory).toBeUndefined();
    await pool.closeAll();
    expect(existsSync(join(home, "protocol-eras.json"))).toBe(false);
  });
});

describe("a connected server's status says its revision", () => {
  test("a handshake server is legacy, and --json says so beside the version", async () => {
    const pool = memoryPool(["files"]);
    try {
      await pool.connectAll();
      const status = pool.status()[0]!;
      expect(status).toMatchObject({ state: "connected", era: "legacy" });
      expect(statusToJson(status)).toMatchObject({ protocolVersion: expect.any(String), era: "legacy", revision: expect.stringMatching(/^\d{4}-\d\d-\d\d \(handshake\)$/) });
    } finally {
      await pool.closeAll();
    }
  });

  test("the revision reads stateless for the modern era", () => {
    const base = { name: "m", scope: "user" as const, source: "x", description: "stdio: m", state: "connected" as const, tools: [], serverInfo: undefined };
    expect(statusToJson({ ...base, protocolVersion: "2026-07-28", era: "modern" })).toMatchObject({ era: "modern", revision: "2026-07-28 (stateless)" });
  });
});
