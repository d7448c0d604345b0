import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EraMemory, eraFingerprint, MAX_ERA_FILE_BYTES, REPROBE_AFTER_MS } from "../../../../src/mcp/client/era-memory.ts";
import type { HttpServerConfig, StdioServerConfig } from "../../../../src/mcp/config/server-config.ts";
import { tempDir } from "../../../helpers/paths.ts";
import { debugLines } from "../../../helpers/debug-lines.ts";

const stdio = (command: string, more: Partial<StdioServerConfig> = {}): StdioServerConfig => ({ type: "stdio", command, args: [], env: {}, ...more });
const http = (url: string, headers: Record<string, string> = {}): HttpServerConfig => ({ type: "http", url, headers });

/** A memory in a fresh CAT_CODE_HOME, with a clock the test moves. */
function fresh(options: { maxRecords?: number } = {}) {
  const home = tempDir();
  let time = 1_000;
  const memory = new EraMemory({ env: { CAT_CODE_HOME: home }, now: () => time, ...options });
  return { home, memory, file: join(home, "protocol-eras.json"), tick: (ms = 1) => (time += ms) };
}

describe("EraMemory", () => {
  test("nothing is known at first; what is remembered is recalled by another instance (another process)", async () => {
    const { home, memory } = fresh();
    const echo = stdio("./echo-server.sh");
    expect(memory.recall(echo)).toBeUndefined();
    await memory.remember(echo, { era: "legacy", version: "2025-11-25" });
    const later = new EraMemory({ env: { CAT_CODE_HOME: home } });
    expect(later.recall(echo)).toMatchObject({ era: "legacy", version: "2025-11-25", at: 1_000 });
    expect(later.recall(stdio("./other.sh"))).toBeUndefined();
  });

  test("the file is private (0600), JSON, written atomically (no temporary file left), and holds no secret", async () => {
    const { home, memory, file } = fresh();
    await memory.remember(http("https://mcp.example.com/mcp?key=sekrit-query", { Authorization: "Bearer sekrit-token" }), { era: "modern", version: "2026-07-28" });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, "utf8");
    expect(JSON.parse(text).servers).toBeDefined();
    expect(text).not.toContain("sekrit");
    expect(text).not.toContain("example.com");
    expect(readdirSync(home)).toEqual(["protocol-eras.json"]);
  });

  test("the key follows what decides which program answers", () => {
    const base = stdio("node", { args: ["server.js"] });
    const key = eraFingerprint(base, "/project/a");
    expect(eraFingerprint({ ...base }, "/project/a")).toBe(key);
    // The same relative command line in another folder is another program.
    expect(eraFingerprint(base, "/project/b")).not.toBe(key);
    expect(eraFingerprint({ ...base, cwd: "/srv" }, "/project/a")).toBe(eraFingerprint({ ...base, cwd: "/srv" }, "/project/b"));
    expect(eraFingerprint({ ...base, args: ["other.js"] }, "/project/a")).not.toBe(key);
    expect(eraFingerprint({ ...base, env: { MODE: "x" } }, "/project/a")).not.toBe(key);
    // Settings that do not change the program do not change the key.
    expect(eraFingerprint({ ...base, timeout: 5000, disabled: false }, "/project/a")).toBe(key);
    const remote = http("https://a.example/mcp");
    expect(eraFingerprint(remote, "/x")).toBe(eraFingerprint(remote, "/y"));
    expect(eraFingerprint(http("https://b.example/mcp"))).not.toBe(eraFingerprint(remote));
    expect(eraFingerprint(http("https://a.example/mcp", { Authorization: "Bearer 2" }))).not.toBe(eraFingerprint(remote));
  });

  test("remembering what is already recorded writes nothing", async () => {
    const { memory, file, tick } = fresh();
    const echo = stdio("./echo-server.sh");
    await memory.remember(echo, { era: "legacy", version: "2025-11-25" });
    const before = readFileSync(file, "utf8");
    tick(500);
    await memory.remember(echo, { era: "legacy", version: "2025-11-25" });
    expect(readFileSync(file, "utf8")).toBe(before);
    await memory.remember(echo, { era: "modern", version: "2026-07-28" });
    expect(memory.recall(echo)).toEqual({ era: "modern", version: "2026-07-28", at: 1_500, stale: false });
  });

  test(`a record older than a day (REPROBE_AFTER_MS) is stale; the era found again is written with the new time`, async () => {
    const { memory, file, tick } = fresh();
    const echo = stdio("./echo-server.sh");
    await memory.remember(echo, { era: "legacy", version: "2025-11-25" });
    tick(REPROBE_AFTER_MS);
    expect(memory.recall(echo)).toEqual({ era: "legacy", version: "2025-11-25", at: 1_000, stale: false });
    tick(1);
    expect(memory.recall(echo)?.stale).toBe(true);
    await memory.remember(echo, { era: "legacy", version: "2025-11-25" });
    expect(memory.recall(echo)).toEqual({ era: "legacy", version: "2025-11-25", at: 1_000 + REPROBE_AFTER_MS + 1, stale: false });
    expect(JSON.parse(readFileSync(file, "utf8")).servers[eraFingerprint(echo)].at).toBe(1_000 + REPROBE_AFTER_MS + 1);
  });

  test("a record more than a day in the future (a clock set back) is stale too, so it cannot pin an era for good", () => {
    const { memory, file } = fresh();
    const echo = stdio("./echo-server.sh");
    writeFileSync(file, JSON.stringify({ servers: { [eraFingerprint(echo)]: { era: "legacy", version: "2025-11-25", at: 1_000 + REPROBE_AFTER_MS + 1 } } }));
    expect(memory.recall(echo)?.stale).toBe(true);
  });

  test("forget drops one configuration and keeps the others", async () => {
    const { memory } = fresh();
    const [a, b] = [stdio("a"), stdio("b")];
    await memory.remember(a, { era: "modern", version: "2026-07-28" });
    await memory.remember(b, { era: "legacy", version: "2025-06-18" });
    await memory.forget(a);
    expect(memory.recall(a)).toBeUndefined();
    expect(memory.recall(b)?.version).toBe("2025-06-18");
    await memory.forget(a);
  });

  test("the number of records is bounded: the oldest go first", async () => {
    const { memory, file, tick } = fresh({ maxRecords: 3 });
    const servers = ["s1", "s2", "s3", "s4", "s5"].map((name) => stdio(name));
    for (const server of servers) {
      tick();
      await memory.remember(server, { era: "legacy", version: "2025-11-25" });
    }
    expect(servers.map((server) => memory.recall(server) !== undefined)).toEqual([false, false, true, true, true]);
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).servers)).toHaveLength(3);
  });

  test("two writers at once both keep their record", async () => {
    const { memory } = fresh();
    const servers = Array.from({ length: 8 }, (_, i) => stdio(`s${i}`));
    await Promise.all(servers.map((server) => memory.remember(server, { era: "modern", version: "2026-07-28" })));
    expect(servers.every((server) => memory.recall(server)?.era === "modern")).toBe(true);
  });

  test.each([
    ["not JSON", "{ nope"],
    ["JSON of the wrong shape", JSON.stringify({ servers: [1, 2] })],
    ["empty", ""],
    ["larger than the limit", JSON.stringify({ servers: {}, pad: "x".repeat(MAX_ERA_FILE_BYTES) })],
  ])("a file that is %s is no memory, and the next write replaces it", async (_, text) => {
    const { memory, file } = fresh();
    writeFileSync(file, text);
    const echo = stdio("./echo-server.sh");
    const lines = await debugLines(async () => {
      expect(memory.recall(echo)).toBeUndefined();
    });
    if (text !== "") expect(lines.some((line) => line.includes(file) && line.includes("probing servers afresh"))).toBe(true);
    await memory.remember(echo, { era: "legacy", version: "2025-11-25" });
    expect(memory.recall(echo)?.era).toBe("legacy");
    expect(readFileSync(file, "utf8").length).toBeLessThan(1000);
  });

  test("a bad record is skipped, the good ones kept", async () => {
    const { memory, file } = fresh();
    const good = stdio("good");
    const key = eraFingerprint(good);
    writeFileSync(file, JSON.stringify({ servers: { [key]: { era: "modern", version: "2026-07-28", at: 5 }, other: { era: "future", version: 1, at: "x" } } }));
    expect(memory.recall(good)).toEqual({ era: "modern", version: "2026-07-28", at: 5, stale: false });
    await memory.remember(stdio("new"), { era: "legacy", version: "2024-11-05" });
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).servers).sort()).toEqual([key, eraFingerprint(stdio("new"))].sort());
  });

  test("a folder where the file should be, or a home that cannot hold files, is never an error", async () => {
    const { memory, file } = fresh();
    mkdirSync(file);
    expect(memory.recall(stdio("x"))).toBeUndefined();
    await memory.remember(stdio("x"), { era: "legacy", version: "2025-11-25" });
    await memory.forget(stdio("x"));

    const notAFolder = join(tempDir(), "home-is-a-file");
    writeFileSync(notAFolder, "");
    const homeless = new EraMemory({ env: { CAT_CODE_HOME: notAFolder } });
    await homeless.remember(stdio("x"), { era: "legacy", version: "2025-11-25" });
    expect(homeless.recall(stdio("x"))).toBeUndefined();
  });
});
