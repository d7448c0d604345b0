import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { writeBrowserOpener } from "./browser-opener.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "cli", "main.ts");
/**
 * cat-code from source, or the test binary when `npm test` built one (scripts/test.ts): the same
 * code, 0.2 s faster to start, and a scenario runs cat-code three or four times.
 */
const CAT_CODE = process.env.CAT_CODE_TEST_BINARY ? [process.env.CAT_CODE_TEST_BINARY] : [process.execPath, MAIN];
/** The entry's name in the temp config: tool names read `mcp__conformance__<tool>`. */
export const SERVER_NAME = "conformance";
/** A step's output is echoed into the suite's stdout.txt/stderr.txt; a runaway one is cut there. */
const MAX_ECHO_CHARS = 20_000;

export interface Step {
  /** The command line after `cat-code`, for messages. */
  command: string;
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** One tool as `cat-code mcp tools --json` prints it. */
export interface ListedTool {
  name: string;
  tool: string;
  inputSchema: Record<string, unknown>;
}

const running = new Set<Subprocess>();

/** Ends the running cat-code commands: the suite ends this client with SIGTERM when it times out. */
export function stopRunningSteps(): void {
  for (const child of running) child.kill("SIGTERM");
}

/**
 * cat-code's own CLI pointed at the scenario's server: each step is a `cat-code mcp ...` process
 * (run from source with the same Bun) reading a temp `--mcp-config` with one HTTP entry for the URL,
 * with `CAT_CODE_HOME` in a temp folder, so nothing of the user's is read or written (and no token
 * of another run is ever sent: the suite counts any unknown token as a failure). `$BROWSER` is the
 * fetch-based stand-in, so a sign-in completes without a person.
 */
export class CatCodeCli {
  private readonly home = mkdtempSync(join(tmpdir(), "cat-code-conformance-"));
  private readonly configPath = join(this.home, "mcp.json");
  private readonly browser = writeBrowserOpener(this.home);
  /** Every step that exited non-zero, as a line naming the command and its exit code. */
  readonly failures: string[] = [];

  /** `oauth`: the entry's `oauth` block, as a user would write it for this server. */
  constructor(serverUrl: string, requestTimeoutMs: number, oauth?: Record<string, unknown>) {
    const entry = { type: "http", url: serverUrl, timeout: requestTimeoutMs, ...(oauth ? { oauth } : {}) };
    writeFileSync(this.configPath, JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2));
  }

  /** `cat-code mcp tools conformance --json`: the tools cat-code keeps (what the model would see). */
  async listTools(): Promise<ListedTool[]> {
    const step = await this.run(["tools", SERVER_NAME, "--json"]);
    if (step.exitCode !== 0) return [];
    try {
      return (JSON.parse(step.stdout) as { tools: ListedTool[] }).tools;
    } catch {
      this.failures.push(`${step.command}: stdout is not the JSON document --json promises`);
      return [];
    }
  }

  /** `cat-code mcp call conformance <tool> --json '<arguments>' [flags]`; `expected`: exit codes that are no failure of the step. */
  call(tool: string, args: Record<string, unknown>, flags: string[] = [], expected: readonly number[] = [0]): Promise<Step> {
    return this.run(["call", SERVER_NAME, tool, "--json", JSON.stringify(args), ...flags], expected);
  }

  /** `cat-code mcp login conformance`: the sign-in a user runs when a command says to. */
  login(): Promise<Step> {
    return this.run(["login", SERVER_NAME]);
  }

  /**
   * Runs `cat-code mcp <args> --mcp-config <temp>` to its end, echoing its output with a header line.
   * An exit code outside `expected` is recorded in `failures`.
   */
  async run(args: string[], expected: readonly number[] = [0]): Promise<Step> {
    const argv = [...CAT_CODE, "mcp", ...args, "--mcp-config", this.configPath];
    const child = Bun.spawn(argv, {
      // One command per step, as the suite expects of a client: no connection keeper holding the
      // scenario's server after the step ends.
      env: { ...process.env, CAT_CODE_HOME: this.home, BROWSER: this.browser, CAT_CODE_NO_KEEPER: "1" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    running.add(child);
    const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    running.delete(child);
    const command = `cat-code mcp ${args.map(quoteIfNeeded).join(" ")}`;
    console.log(`$ ${command}  (exit ${exitCode})\n${cut(stdout)}`);
    if (stderr) console.error(`$ ${command}\n${cut(stderr)}`);
    if (!expected.includes(exitCode)) this.failures.push(`${command}: exit ${exitCode}${stderr ? `: ${errorLine(stderr)}` : ""}`);
    return { command, exitCode, stdout, stderr };
  }

  close(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

function quoteIfNeeded(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

function cut(text: string): string {
  return text.length > MAX_ECHO_CHARS ? `${text.slice(0, MAX_ECHO_CHARS)}… (${text.length - MAX_ECHO_CHARS} more characters)` : text;
}

/** The line that says why a step failed: its `error:` line, else its first (a sign-in prints the URL first). */
function errorLine(text: string): string {
  const lines = text.trim().split("\n");
  return lines.find((line) => line.startsWith("error:")) ?? lines[0] ?? "";
}
