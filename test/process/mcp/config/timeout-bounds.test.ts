import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { parseServerEntry } from "../../../../src/mcp/config/load-config.ts";
import { MAX_TIMEOUT_MS } from "../../../../src/mcp/config/server-config.ts";
import { runBinary } from "../../../helpers/binary.ts";
import { tempDir } from "../../../helpers/paths.ts";

/** A timer cannot hold more than 2^31-1 ms: a larger timeout would fire at once. */
test("a config timeout above 2^31-1 ms is refused when the entry is read, naming the field", () => {
  expect(MAX_TIMEOUT_MS).toBe(2 ** 31 - 1);
  const parse = (timeout: number) => parseServerEntry("s", { command: "x", timeout }, "user", "mcp.json", {});
  expect(parse(MAX_TIMEOUT_MS)).toMatchObject({ ok: true, config: { timeout: MAX_TIMEOUT_MS } });
  expect(parse(MAX_TIMEOUT_MS + 1)).toMatchObject({ ok: false, error: `"timeout" must be at most ${MAX_TIMEOUT_MS} ms (about 24 days)` });
  expect(parse(3_000_000_000)).toMatchObject({ ok: false });
});

test("mcp add --timeout above 2^31-1 ms is exit 2 and writes nothing; add-json's timeout too", async () => {
  const home = tempDir();
  const add = await runBinary(["mcp", "add", "slow", "--timeout", "3000000000", "--", "x"], { env: { CAT_CODE_HOME: home } });
  expect([add.exitCode, add.stderr.trim()]).toEqual([2, `error: --timeout must be at most ${MAX_TIMEOUT_MS} ms (about 24 days), got 3000000000; nothing was written`]);
  const json = await runBinary(["mcp", "add-json", "slow", '{"command":"x","timeout":3000000000}'], { env: { CAT_CODE_HOME: home } });
  expect([json.exitCode, json.stderr.trim()]).toEqual([2, `error: invalid entry for 'slow': "timeout" must be at most ${MAX_TIMEOUT_MS} ms (about 24 days); nothing was written`]);
  expect(readdirSync(home)).toEqual([]);
  const ok = await runBinary(["mcp", "add", "slow", "--timeout", String(MAX_TIMEOUT_MS), "--", "x"], { env: { CAT_CODE_HOME: home } });
  expect(ok.exitCode).toBe(0);
});
