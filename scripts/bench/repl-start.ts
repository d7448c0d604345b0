/**
 * Benchmark 7: the REPL's time to prompt when a server takes 5 s to answer `initialize`: servers
 * connect in the background, so the prompt must not wait for them. The compiled binary runs in a
 * pseudo-terminal (`script -qfc`), as a person would start it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, ECHO_SERVER, ROOT } from "./paths.ts";
import { benchBinary, cleanEnv } from "./processes.ts";
import type { Section } from "./report.ts";
import { formatMs, max, median, verdict } from "./stats.ts";

const HANDSHAKE_MS = 5000;
/** The prompt as the REPL draws it at a terminal: the line cleared (`ESC [J` or `ESC [0J`), then "> ". */
const PROMPT = /\u001b\[0?J> |(^|\n)> /;

export function writeConfig(name: string, servers: Record<string, unknown>): string {
  const dir = join(ROOT, "dist", "bench");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ mcpServers: servers }));
  return path;
}

/** Time from spawn until the prompt is on the terminal; the REPL is then ended with its process group. */
export async function timeToPrompt(binary: string, config: string): Promise<number> {
  const command = `${binary} --mcp-config ${config}`;
  const started = performance.now();
  const child = Bun.spawn(["script", "-qfc", command, "/dev/null"], {
    cwd: ROOT,
    env: cleanEnv({ TERM: "xterm" }),
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  let ms = Number.NaN;
  const deadline = setTimeout(() => reader.cancel().catch(() => {}), 15_000);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
      if (PROMPT.test(seen)) {
        ms = performance.now() - started;
        break;
      }
    }
  } finally {
    clearTimeout(deadline);
    // Ctrl-D twice at the prompt (the first only asks), then the group for good measure: the REPL closes its servers on both.
    child.stdin.write("\u0004\u0004");
    await child.stdin.flush();
    const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(3000).then(() => false)]);
    if (!exited) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
      await child.exited;
    }
  }
  if (Number.isNaN(ms)) throw new Error(`no prompt within 15 s; the terminal showed: ${JSON.stringify(seen.slice(-400))}`);
  return ms;
}

export async function replStart(options: { rounds: number; log: (line: string) => void }): Promise<{ section: Section; headline: string }> {
  const title = "7. REPL start with a 5 s handshake";
  const binary = await benchBinary();
  const configs = {
    none: writeConfig("repl-none.mcp.json", {}),
    slow: writeConfig("repl-slow.mcp.json", { slow: { command: BUN, args: [ECHO_SERVER, `--init-delay-ms=${HANDSHAKE_MS}`] } }),
  };
  const times: Record<keyof typeof configs, number[]> = { none: [], slow: [] };
  for (let round = -1; round < options.rounds; round++) {
    for (const which of round % 2 ? (["none", "slow"] as const) : (["slow", "none"] as const)) {
      const ms = await timeToPrompt(binary, configs[which]);
      if (round < 0) continue;
      times[which].push(ms);
      options.log(`  round ${round + 1}: ${which}: ${formatMs(ms)}`);
    }
  }
  const slow = median(times.slow);
  return {
    section: {
      title,
      method:
        "Time from spawning `cat-code --mcp-config <file>` (the compiled binary, no subcommand: the REPL) inside a pseudo-terminal " +
        "(`script -qfc`) until the prompt `> ` is drawn, with one server (`fixtures/bench/echo-server.ts " +
        `--init-delay-ms=${HANDSHAKE_MS}\`) whose handshake takes ${HANDSHAKE_MS / 1000} s, and with no server for reference. ` +
        `${options.rounds} rounds after a warm-up, alternating; each run then ends the REPL with Ctrl-D. No API key is set.`,
      table: [
        ["servers", "median time to prompt", "slowest"],
        ["none", formatMs(median(times.none)), formatMs(max(times.none))],
        [`one, ${HANDSHAKE_MS / 1000} s handshake`, formatMs(slow), formatMs(max(times.slow))],
      ],
      verdicts: [`prompt within 300 ms despite the 5 s handshake: ${formatMs(slow)} ${verdict(slow < 300)}`],
    },
    headline: `REPL: prompt in ${formatMs(slow)} while a server's 5 s handshake runs in the background`,
  };
}
