import { afterEach } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMessagesStandIn, type MessagesStandIn, type StandInOptions, type Step } from "../../fixtures/anthropic/messages-stand-in.ts";
import { testBinary } from "./binary.ts";
import { tempDir } from "./paths.ts";
import { childEnv, PipedCli } from "./cli-process.ts";
import { PtyTerminal } from "./pty-terminal.ts";

/** What differs between one REPL under test and the next. */
export interface ReplOptions {
  /** A compiled binary to run instead of the test binary (`pty` only). */
  binary?: string;
  /** The project folder the REPL runs in; a fresh temp dir if not given. */
  cwd?: string;
  /** CAT_CODE_HOME; a fresh temp dir if not given. */
  home?: string;
  /** The servers of the mcp.json passed with `--mcp-config` (none if not given). */
  servers?: Record<string, unknown>;
  /** Where that mcp.json is written; a fresh temp dir if not given. */
  configDir?: string;
  /** An mcp.json of the test's own to pass instead, or false for no `--mcp-config` at all. */
  mcpConfig?: string | false;
  /** Arguments after `--mcp-config <file>`. */
  args?: string[];
  /** Set on top of the environment (after ANTHROPIC_*, so they can be overridden). */
  env?: Record<string, string>;
}

/**
 * The REPL against the Messages API stand-in, as most REPL tests run it: the stand-in, a temp home
 * and project, an mcp.json, and cat-code in a pseudo-terminal (`pty`) or with piped stdin (`piped`),
 * all stopped after each test. Call once at the top of a test file.
 */
export function replUnderTest() {
  let standIns: MessagesStandIn[] = [];
  let processes: { kill(): void }[] = [];
  let dirs: string[] = [];

  afterEach(async () => {
    for (const child of processes) child.kill();
    processes = [];
    for (const standIn of standIns) await standIn.stop();
    standIns = [];
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    dirs = [];
  });

  function argv(options: ReplOptions): string[] {
    const args = options.args ?? [];
    if (options.mcpConfig === false) return args;
    let config = options.mcpConfig;
    if (config === undefined) {
      config = join(options.configDir ?? tempDir(), "mcp.json");
      writeFileSync(config, JSON.stringify({ mcpServers: options.servers ?? {} }));
    }
    return ["--mcp-config", config, ...args];
  }

  function program(options: ReplOptions): string[] {
    return [options.binary ?? testBinary()];
  }

  function modelEnv(): Record<string, string> {
    const standIn = standIns.at(-1);
    return { ANTHROPIC_API_KEY: "sk-test", ...(standIn ? { ANTHROPIC_BASE_URL: standIn.url } : {}) };
  }

  return {
    /** Starts a stand-in playing `steps`; the REPLs started after it talk to it. */
    startStandIn(steps: Step[], options?: StandInOptions): MessagesStandIn {
      const standIn = startMessagesStandIn(steps, options);
      standIns.push(standIn);
      return standIn;
    },

    /** The stand-in started last in this test, if any. */
    get standIn(): MessagesStandIn | undefined {
      return standIns.at(-1);
    },

    /** Kills `child` after the test too: for a process a test starts its own way. */
    track<T extends { kill(): void }>(child: T): T {
      processes.push(child);
      return child;
    },

    /** A temp dir removed after the test (after the REPL is stopped). */
    tempDir(prefix?: string): string {
      const dir = tempDir(prefix);
      dirs.push(dir);
      return dir;
    },

    /**
     * cat-code in a 120x40 pseudo-terminal; its environment is only the home, the model's address
     * and key, PATH, and `options.env`. Does not wait for the prompt.
     */
    pty(options: ReplOptions = {}): PtyTerminal {
      const terminal = new PtyTerminal();
      const env = { CAT_CODE_HOME: options.home ?? tempDir(), ...modelEnv(), PATH: process.env.PATH ?? "/usr/bin:/bin", ...options.env };
      terminal.start([...program(options), ...argv(options)], { cwd: options.cwd ?? tempDir(), env });
      processes.push(terminal);
      return terminal;
    },

    /** cat-code with piped stdin, in the test's environment minus its credentials; NO_COLOR=1 unless `noColor` is false. */
    piped(options: ReplOptions & { noColor?: boolean } = {}): PipedCli {
      const env = childEnv(options.home ?? tempDir(), { ...modelEnv(), ...options.env });
      if (options.noColor === false) delete env.NO_COLOR;
      const cli = new PipedCli(argv(options), { cwd: options.cwd ?? tempDir(), env });
      processes.push(cli);
      return cli;
    },
  };
}
