import { afterAll, afterEach } from "bun:test";
import { join } from "node:path";
import { run, runBinary, runSource, type RunResult } from "./binary.ts";
import { readKeeperInfo, stopKeepersOf } from "./keeper-home.ts";
import { tempDir } from "./paths.ts";

/**
 * The `mcp call | tools | list` process tests run in both modes with the same expectations (issue
 * 18: a warm call prints the same bytes and exits with the same code as a cold one):
 * - cold: `CAT_CODE_NO_KEEPER=1`, today's way;
 * - warm: through a keeper, in a temp `CAT_CODE_HOME` of the describe's own (or the one a test
 *   sets), stopped after the test (a home of the test's own) or after the describe; with
 *   `CAT_CODE_KEEP_ALIVE=600` (unless the test sets it), so ad-hoc `--stdio`/`--url` servers,
 *   which are not kept unless asked, go through the keeper too.
 * Use it inside the describe: `describe.each(KEEPER_MODES)("%s", (name) => { const cat = useKeeperMode(name); … })`.
 */
export const KEEPER_MODES = ["cold", "warm"] as const;
export type KeeperModeName = (typeof KEEPER_MODES)[number];

type Env = Record<string, string | undefined>;
type RunOptions = NonNullable<Parameters<typeof run>[1]>;

export interface KeeperMode {
  name: KeeperModeName;
  /** The environment of a run in this mode, `extra` on top (for tests that call `run` themselves). */
  env(extra?: Env): Env;
  runSource(args: string[], options?: RunOptions): Promise<RunResult>;
  runBinary(args: string[], options?: RunOptions): Promise<RunResult>;
  /**
   * Warm: stops every keeper this mode started, waiting for each to exit. A "no server process is
   * left" check calls it first: a warm server stays by design while its keeper runs.
   */
  stopKeepers(): Promise<void>;
}

export function useKeeperMode(name: KeeperModeName): KeeperMode {
  if (name === "cold") {
    const env = (extra: Env = {}) => ({ ...extra, CAT_CODE_NO_KEEPER: "1" });
    return {
      name,
      env,
      runSource: (args, options = {}) => runSource(args, { ...options, env: env(options.env) }),
      runBinary: (args, options = {}) => runBinary(args, { ...options, env: env(options.env) }),
      stopKeepers: async () => {},
    };
  }

  const ownHome = tempDir("cat-code-warm-home-");
  /** Homes set by a test itself: their keepers are stopped after that test. */
  const testHomes = new Set<string>();
  let keepersSeen = 0;

  const env = (extra: Env = {}): Env => {
    const merged: Env = { CAT_CODE_KEEP_ALIVE: "600", ...extra, CAT_CODE_NO_KEEPER: undefined };
    // A test that unsets CAT_CODE_HOME means `$HOME/.cat-code`: only ever a HOME the test chose.
    if (!("CAT_CODE_HOME" in extra) || (extra.CAT_CODE_HOME === undefined && extra.HOME === undefined)) merged.CAT_CODE_HOME = ownHome;
    const home = merged.CAT_CODE_HOME ?? join(merged.HOME!, ".cat-code");
    if (home !== ownHome) testHomes.add(home);
    return merged;
  };

  const stopIn = async (home: string) => {
    if (readKeeperInfo(home)) keepersSeen++;
    await stopKeepersOf(home, () => runBinary(["mcp", "keeper", "stop"], { env: { CAT_CODE_HOME: home, CAT_CODE_NO_KEEPER: undefined } }));
  };
  const stopTestHomes = async () => {
    const homes = [...testHomes];
    testHomes.clear();
    for (const home of homes) await stopIn(home);
  };

  afterEach(stopTestHomes);
  afterAll(async () => {
    await stopTestHomes();
    await stopIn(ownHome);
    // Else warm mode could pass by quietly running cold: some command of the describe must have started a keeper.
    if (keepersSeen === 0) throw new Error("warm mode never started a keeper: these tests ran cold");
  });

  return {
    name,
    env,
    runSource: (args, options = {}) => runSource(args, { ...options, env: env(options.env) }),
    runBinary: (args, options = {}) => runBinary(args, { ...options, env: env(options.env) }),
    stopKeepers: async () => {
      await stopTestHomes();
      await stopIn(ownHome);
    },
  };
}
