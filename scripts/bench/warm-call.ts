/**
 * Benchmark 9: `cat-code mcp call` on server-everything through the connection keeper (issue 18),
 * against the cold call (`--no-keeper`), the SDK in a Node script and the Inspector's CLI, in one run:
 * the warm call, the first call of all (which also starts the keeper), and 100 calls in a shell loop
 * with the keeper's peak memory.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BENCH_FIXTURES, ROOT } from "./paths.ts";
import { benchBinary, cleanEnv, timedRun } from "./processes.ts";
import type { Section } from "./report.ts";
import { formatMiB, formatMs, formatNumber, median, verdict } from "./stats.ts";

/** A devDependency since issue 18. */
const INSPECTOR = join(ROOT, "node_modules", ".bin", "mcp-inspector");
/**
 * Not a devDependency: it wants Node >= 22.19, and its vite dependency's optional packages leave
 * package-lock.json in a state `npm ci` refuses. Installed by hand for a run that measures it.
 */
const INSPECTOR_INSTALL = "`npm install --no-save @modelcontextprotocol/inspector@2.12.0`";
const SERVER = ["node", "node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"];
const EXPECT = "Echo: hi";
const LOOP_CALLS = 100;
/** An ad-hoc server is kept only when asked (issue 26): the bench asks, as a script that wants it warm does. */
const KEEP = ["--keep-alive", "600"];
/** A home of the bench's own: its keeper is started and stopped here, never in the user's. */
const HOME = join(ROOT, "dist", "bench", "keeper-home");

type Contender = "version" | "warm" | "tools" | "list" | "first" | "cold" | "sdk" | "inspector";
/** The contenders whose CPU time is shown beside their wall time: a start-up and the warm commands. */
const WITH_CPU = ["version", "warm", "tools", "list"] as const;
/** A warm command may cost at most this much more than `--version` (issue 32). */
const OVER_VERSION_MS = 10;

function keeperInfo(): { pid: number } | undefined {
  try {
    return JSON.parse(readFileSync(join(HOME, "run", "keeper.json"), "utf8")) as { pid: number };
  } catch {
    return undefined;
  }
}

/** The 1-minute load average (Linux), to say how busy the shared machine was. */
function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?";
  } catch {
    return "?";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The keeper's peak resident memory (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmHWM:"));
  return Number(/(\d+)/.exec(line ?? "")?.[1]) * 1024;
}

export async function warmCall(options: { rounds: number; warmPerRound: number; log: (line: string) => void }): Promise<{ section: Section; headline: string }> {
  const binary = await benchBinary();
  const env = cleanEnv({ CAT_CODE_HOME: HOME });
  delete env.CAT_CODE_NO_KEEPER;
  rmSync(HOME, { recursive: true, force: true });
  const call = [binary, "mcp", "call", "--stdio", SERVER.join(" "), ...KEEP, "echo", "message=hi"];
  // `tools` and `list` tell the server nobody answers its questions: a connection of their own, started untimed.
  const tools = [binary, "mcp", "tools", "--stdio", SERVER.join(" "), ...KEEP];
  const list = [binary, "mcp", "list", "--stdio", SERVER.join(" "), ...KEEP];
  // The switch as well as the flag: a cold row that went warm by mistake would make every ratio a lie.
  const coldEnv = { ...env, CAT_CODE_NO_KEEPER: "1" };
  const checkedRun = async (label: string, argv: string[], runEnv = env, expect = EXPECT) => {
    const run = await timedRun(argv, { env: runEnv });
    if (run.exitCode !== 0 || !run.stdout.includes(expect)) {
      throw new Error(`${label}: exit ${run.exitCode}; stdout ${run.stdout.slice(0, 200)}; stderr ${run.stderr.slice(0, 400)}`);
    }
    return run;
  };
  const checked = async (...args: Parameters<typeof checkedRun>) => (await checkedRun(...args)).ms;
  const stopKeeper = async () => {
    const info = keeperInfo();
    await timedRun([binary, "mcp", "keeper", "stop"], { env });
    // A bench may poll: it waits for the keeper to be gone so the next "first call" finds none.
    for (let i = 0; info && alive(info.pid) && i < 200; i++) await Bun.sleep(25);
    if (info && alive(info.pid)) throw new Error(`the keeper ${info.pid} did not exit on mcp keeper stop`);
  };

  const times: Record<Contender, number[]> = { version: [], warm: [], tools: [], list: [], first: [], cold: [], sdk: [], inspector: [] };
  const cpu: Record<(typeof WITH_CPU)[number], number[]> = { version: [], warm: [], tools: [], list: [] };
  const loadBefore = loadAverage();
  const inspector = existsSync(INSPECTOR);
  for (let round = -1; round < options.rounds; round++) {
    const record = (key: Contender, ms: number) => {
      if (round < 0) return;
      times[key].push(ms);
      options.log(`  round ${round + 1}: ${key}: ${formatMs(ms)}`);
    };
    const recordRun = (key: (typeof WITH_CPU)[number], run: { ms: number; cpuMs: number }) => {
      if (round >= 0) cpu[key].push(run.cpuMs);
      record(key, run.ms);
    };
    // The keeper's own steps, in order: none yet, the first call starts it, then it is warm.
    const keeperSteps = async () => {
      await stopKeeper();
      record("first", await checked("first mcp call", call));
      if (!keeperInfo()) throw new Error("the first call started no keeper");
      await checked("first mcp tools", tools, env, "echo");
      // Each warm command beside a `--version` of its own: the floor moves with the machine's load.
      for (let i = 0; i < options.warmPerRound; i++) {
        recordRun("version", await checkedRun("--version", [binary, "--version"], env, "cat-code"));
        recordRun("warm", await checkedRun("warm mcp call", call));
        recordRun("tools", await checkedRun("warm mcp tools", tools, env, "echo"));
        recordRun("list", await checkedRun("warm mcp list", list, env, "CONNECTED"));
      }
    };
    const steps: [string, () => Promise<void>][] = [
      ["keeper", keeperSteps],
      ["cold", async () => record("cold", await checked("mcp call --no-keeper", [...call, "--no-keeper"], coldEnv))],
      ["sdk", async () => record("sdk", await checked("SDK script", ["node", join(BENCH_FIXTURES, "sdk-call.mjs"), "echo", '{"message":"hi"}', ...SERVER]))],
    ];
    if (inspector) {
      const argv = [INSPECTOR, "--cli", ...SERVER, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi"];
      steps.push(["inspector", async () => record("inspector", await checked("mcp-inspector --cli", argv))]);
    }
    const shift = ((round % steps.length) + steps.length) % steps.length;
    for (const [, step] of [...steps.slice(shift), ...steps.slice(0, shift)]) await step();
  }

  // 100 calls as a script makes them: a shell loop, each call a new process, one keeper behind them all.
  const loop = `for i in $(seq ${LOOP_CALLS}); do "$0" mcp call --stdio '${SERVER.join(" ")}' ${KEEP.join(" ")} echo message=hi >/dev/null || exit 1; done`;
  const loopRun = await timedRun(["bash", "-c", loop, binary], { env, timeoutMs: 600_000 });
  if (loopRun.exitCode !== 0) throw new Error(`the loop of ${LOOP_CALLS} calls failed: ${loopRun.stderr.slice(0, 400)}`);
  const keeper = keeperInfo();
  const rss = keeper && alive(keeper.pid) ? peakRss(keeper.pid) : Number.NaN;
  await stopKeeper();

  const warm = median(times.warm);
  const version = median(times.version);
  const cold = { "cold `mcp call --no-keeper`": median(times.cold), "SDK script (Node)": median(times.sdk), ...(inspector ? { "`mcp-inspector --cli`": median(times.inspector) } : {}) };
  const cpuOf = (key: (typeof WITH_CPU)[number]) => median(cpu[key]);
  const table = [
    ["contender", "median", "÷ warm", "its CPU"],
    ["`cat-code --version` (the floor: a process start)", formatMs(version), `${(version / warm).toFixed(1)}×`, formatMs(cpuOf("version"))],
    ["warm `mcp call` (keeper running)", formatMs(warm), "1.0×", formatMs(cpuOf("warm"))],
    ["warm `mcp tools`", formatMs(median(times.tools)), `${(median(times.tools) / warm).toFixed(1)}×`, formatMs(cpuOf("tools"))],
    ["warm `mcp list`", formatMs(median(times.list)), `${(median(times.list) / warm).toFixed(1)}×`, formatMs(cpuOf("list"))],
    ["first `mcp call` (starts the keeper)", formatMs(median(times.first)), `${(median(times.first) / warm).toFixed(1)}×`, ""],
    ...Object.entries(cold).map(([name, ms]) => [name, formatMs(ms), `${(ms / warm).toFixed(1)}×`, ""]),
    [`${LOOP_CALLS} warm calls in a shell loop`, `${formatMs(loopRun.ms)} in all`, `${formatMs(loopRun.ms / LOOP_CALLS)} a call`, ""],
  ];
  const firstOver = median(times.first) - median(times.cold);
  const verdicts = [
    `warm median at most 30 ms: ${formatMs(warm)} ${verdict(warm <= 30)}`,
    ...(["warm", "tools", "list"] as const).map((key) => {
      const over = median(times[key]) - version;
      const cpuOver = cpuOf(key) - cpuOf("version");
      return `warm \`mcp ${key === "warm" ? "call" : key}\` at most ${OVER_VERSION_MS} ms over \`--version\`: +${formatMs(over)} ${verdict(over <= OVER_VERSION_MS)} (its CPU +${formatMs(cpuOver)})`;
    }),
    ...Object.entries(cold).map(([name, ms]) => `at least 20× faster than ${name}: ${(ms / warm).toFixed(1)}× ${verdict(ms / warm >= 20)}`),
    `the first call at most 30 ms over the cold call: ${firstOver < 0 ? "−" : "+"}${formatMs(Math.abs(firstOver))} ${verdict(firstOver <= 30)}`,
    `${LOOP_CALLS} calls in a shell loop: ${formatMs(loopRun.ms)}; the keeper's peak RSS (VmHWM) ${formatMiB(rss)}`,
    `the machine's load average (1 min) was ${loadBefore} when this benchmark began and ${loadAverage()} when it ended`,
  ];
  if (!inspector) verdicts.push(`\`mcp-inspector --cli\` is not installed (${INSPECTOR_INSTALL}): its row is missing`);
  return {
    section: {
      title: "9. Warm `mcp call` through the connection keeper",
      method:
        `Wall time from spawn to exit of the compiled binary's \`mcp call --stdio '${SERVER.join(" ")}' ${KEEP.join(" ")} echo message=hi\` ` +
        `on \`@modelcontextprotocol/server-everything\`, median of ${options.rounds} rounds after a warm-up round, the contenders rotating. ` +
        `Each round stops the keeper (\`mcp keeper stop\`), times the first call (which finds no keeper, starts one and calls through it), ` +
        `then ${options.warmPerRound} times in a row \`--version\`, a warm \`mcp call\`, a warm \`mcp tools\` and a warm \`mcp list\` of the same server (\`tools\` and \`list\` have a connection of their own, started by an untimed \`mcp tools\` first). The cold contenders start the server themselves: \`--no-keeper\` (with \`CAT_CODE_NO_KEEPER=1\` too), the SDK script ` +
        "(`fixtures/bench/sdk-call.mjs`, `Client` + `StdioClientTransport` under Node) and `mcp-inspector --cli` " +
        `(\`@modelcontextprotocol/inspector\`, when installed: ${INSPECTOR_INSTALL}). Last, ${formatNumber(LOOP_CALLS)} calls in a bash loop on a warm keeper, ` +
        "and the keeper's peak resident memory from `/proc/<pid>/status` (VmHWM). The keeper lives in `dist/bench/keeper-home`. " +
        "*Its CPU* is the process's own CPU time (user + system, from the child's resource usage, its threads included, so it can exceed the wall time): a load on the machine moves it less than the wall time.",
      table,
      verdicts,
    },
    headline: `Warm mcp call (keeper): ${formatMs(warm)} (--version ${formatMs(version)}), ${(median(times.cold) / warm).toFixed(0)}× faster than cold (${formatMs(median(times.cold))}); first call ${formatMs(median(times.first))}; ${LOOP_CALLS} calls ${formatMs(loopRun.ms)}, keeper peak ${formatMiB(rss)}`,
  };
}
