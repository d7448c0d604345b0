import { describe, expect, test } from "bun:test";
import { ToolRegistry } from "../../../../src/agent/tool-registry.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../../src/mcp/pool/server-pool.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BUN, CHAOS_SERVER, ECHO_SERVER, tempDir } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const stdio = (name: string, command: string, args: string[] = [], extra: object = {}): ServerEntry => ({
  name,
  scope: "user",
  source: "test",
  ok: true,
  config: { type: "stdio", command, args, env: {}, ...extra },
});

describe("ServerPool", () => {
  test("one server's failure never touches another; status lists every configured server", async () => {
    const pool = new ServerPool([
      stdio("echo", ECHO_SERVER),
      stdio("missing", "/no/such/command"),
      stdio("crashy", BUN, [CHAOS_SERVER, "--crash=before-handshake"]),
      { name: "broken", scope: "user", source: "/cfg/mcp.json", ok: false, error: '"command" is empty' },
      stdio("off", ECHO_SERVER, [], { disabled: true }),
    ]);
    try {
      await pool.connectAll();
      const byName = Object.fromEntries(pool.status().map((s) => [s.name, s]));
      expect(byName.echo).toMatchObject({ state: "connected", description: `stdio: ${ECHO_SERVER}` });
      const reason = (name: string) => (byName[name] as { reason?: string }).reason ?? "";
      expect(byName.missing?.state).toBe("failed");
      expect(reason("missing")).toContain("command not found: '/no/such/command'");
      expect(byName.crashy?.state).toBe("failed");
      expect(reason("crashy")).toContain("exited with code 3");
      expect(reason("crashy")).toContain("chaos: crashing before the handshake");
      expect(byName.broken).toMatchObject({ state: "invalid", reason: '"command" is empty' });
      expect(byName.off).toMatchObject({ state: "disabled" });
      const registry = new ToolRegistry();
      expect(pool.registerInto(registry)).toBe(1);
      expect((await registry.get("mcp__echo__echo")?.execute({ text: "still works" }))?.content).toBe("still works");
    } finally {
      await pool.closeAll();
    }
  });

  test("servers connect in parallel: the wall time is about the slowest, not the sum", async () => {
    const entries = Array.from({ length: 6 }, (_, i) => stdio(`slow${i}`, BUN, [CHAOS_SERVER, "--slow-ms=1500"]));
    const pool = new ServerPool(entries);
    const started = performance.now();
    await pool.connectAll();
    const elapsed = performance.now() - started;
    await pool.closeAll();
    expect(pool.status().every((s) => s.state === "connected")).toBe(true);
    // Sequentially this is 6 × (2 × 1.5 s) = 18 s at least; in parallel about 3 s, with room for a busy machine.
    expect(elapsed).toBeLessThan(12_000);
  });

  test("two tools that map to the same name are both kept, told apart, with a warning", async () => {
    const tools = [{ name: "read.file" }, { name: "read_file" }];
    const pool = new ServerPool([stdio("fs", "unused")], {
      createTransport: () => new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools }) }),
    });
    await pool.connectAll();
    const registry = new ToolRegistry();
    expect(pool.registerInto(registry)).toBe(2);
    const names = registry.list().map((t) => t.name);
    expect(names[0]).toBe("mcp__fs__read_file");
    expect(names[1]).toMatch(/^mcp__fs__read_file_[0-9a-f]{8}$/);
    await pool.closeAll();
  });

  test("includeTools and excludeTools filter what is registered", async () => {
    const tools = [{ name: "a" }, { name: "b" }, { name: "c" }];
    const make = () => new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools }) });
    const pool = new ServerPool([stdio("inc", "x", [], { includeTools: ["a", "c"] }), stdio("exc", "x", [], { excludeTools: ["a"] })], {
      createTransport: make,
    });
    await pool.connectAll();
    const registry = new ToolRegistry();
    pool.registerInto(registry);
    expect(registry.list().map((t) => t.name)).toEqual(["mcp__inc__a", "mcp__inc__c", "mcp__exc__b", "mcp__exc__c"]);
  });

  test("closeAll closes every client and is safe to call twice", async () => {
    const transports: MemoryTransport[] = [];
    const pool = new ServerPool([stdio("a", "x"), stdio("b", "x")], {
      createTransport: () => {
        const t = new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [] }) });
        transports.push(t);
        return t;
      },
    });
    await pool.connectAll();
    await Promise.all([pool.closeAll(), pool.closeAll()]);
    expect(transports.map((t) => t.closed)).toEqual([1, 1]);
  });
});

describe("server descriptions", () => {
  test("show the entry as written, so a ${VAR} that holds a secret is not expanded on screen", async () => {
    const { parseServerEntry } = await import("../../../../src/mcp/config/load-config.ts");
    const entry = parseServerEntry("s", { command: ECHO_SERVER, args: ["--token", "${TOKEN}"] }, "user", "test", { TOKEN: "s3cret" });
    expect(entry.ok && entry.config.args).toEqual(["--token", "s3cret"]);
    const pool = new ServerPool([entry]);
    expect(pool.status()[0]?.description).toBe(`stdio: ${ECHO_SERVER} --token \${TOKEN}`);
    const http = parseServerEntry("h", { url: "https://${HOST}/mcp?key=${KEY}" }, "user", "test", { HOST: "example.com", KEY: "k3y" });
    expect(new ServerPool([http]).status()[0]?.description).toBe("http: https://${HOST}/mcp?key=${KEY}");
  });
});

describe("tools that change while connected", () => {
  test("tools/list_changed re-lists the server's tools and replaces them in the registry", async () => {
    const changes: string[][] = [];
    const pool = new ServerPool([stdio("grower", BUN, [CHAOS_SERVER, "--growing"])]);
    pool.on("tools-changed", ({ server, tools }) => changes.push([server, ...tools.map((t) => t.name)]));
    try {
      await pool.connectAll();
      const registry = new ToolRegistry();
      pool.registerInto(registry);
      expect(registry.has("mcp__grower__extra_1")).toBe(false);
      const grown = await registry.get("mcp__grower__grow")?.execute({});
      expect(grown).toEqual({ content: "added extra_1", isError: false });
      await waitFor(() => registry.has("mcp__grower__extra_1"), "the new tool to be registered");
      expect(registry.list().map((t) => t.name)).toEqual([
        "mcp__grower__echo",
        "mcp__grower__sleep",
        "mcp__grower__big",
        "mcp__grower__grow",
        "mcp__grower__extra_1",
      ]);
      expect(changes).toEqual([["grower", "echo", "sleep", "big", "grow", "extra_1"]]);
      expect((pool.status()[0] as { tools: unknown[] }).tools.length).toBe(5);
      expect((await registry.get("mcp__grower__extra_1")?.execute({}))?.content).toBe("unknown tool extra_1");
    } finally {
      await pool.closeAll();
    }
  });

  test("a server announcing list_changed again and again with the same list is re-listed, but only a real change is told", async () => {
    const dir = tempDir();
    const record = join(dir, "received.jsonl");
    const listings = () => (existsSync(record) ? readFileSync(record, "utf8").split("\n").filter((line) => line.includes('"tools/list"')).length : 0);
    const changes: string[][] = [];
    const pool = new ServerPool([stdio("chatty", BUN, [CHAOS_SERVER, "--growing", "--announce-every=20", `--record=${record}`])]);
    pool.on("tools-changed", ({ server, tools }) => changes.push([server, ...tools.map((t) => t.name)]));
    try {
      await pool.connectAll();
      await waitFor(() => listings() >= 6, "the server's tools listed again after several announcements");
      expect(changes).toEqual([]);
      const registry = new ToolRegistry();
      pool.registerInto(registry);
      await registry.get("mcp__chatty__grow")?.execute({});
      await waitFor(() => changes.length > 0, "the real change to be told");
      const seen = listings();
      await waitFor(() => listings() >= seen + 4, "more announcements after the change");
      expect(changes).toEqual([["chatty", "echo", "sleep", "big", "grow", "extra_1"]]);
    } finally {
      await pool.closeAll();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
