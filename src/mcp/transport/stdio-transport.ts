import { resolve } from "node:path";
import type { Subprocess } from "bun";
import { log } from "../../log.ts";
import { McpError } from "../mcp-error.ts";
import type { JsonRpcMessage } from "../protocol.ts";
import { BatchedWriter } from "./batched-writer.ts";
import { MAX_MESSAGE_CHARS } from "./message-size-limit.ts";
import { parseMessage } from "./parse-message.ts";
import { rememberDetachedDescendants, signalGroup, trackGroup, untrackGroup, waitForGroupExit } from "../../system/process-group.ts";
import { startsOwnGroup } from "../../system/tree-signal-plan.ts";
import { StderrRing } from "./stderr-ring.ts";
import { TextLineSplitter } from "./text-line-splitter.ts";
import { isRequest } from "./answer-to.ts";
import { forEachMessage, type Transport } from "./transport.ts";
import { settlesWithin, sleep } from "../../system/timers.ts";
import { systemClock, type Clock } from "../../system/clock.ts";

export interface StdioServerParams {
  command: string;
  args: string[];
  /** The whole environment of the child: the caller decides what is passed through. */
  env: Record<string, string>;
  /** The entry's `cwd`, as written (messages quote it so). */
  cwd?: string;
  /**
   * The folder the child starts in when `cwd` is absent, and a relative `cwd` is taken from: the
   * command's own, when another process starts the server for it (the connection keeper). Absent:
   * this process's working directory, as for any child.
   */
  baseDir?: string;
}

export interface StdioTransportOptions {
  /** How long each stage of `close()` waits: stdin closed, then SIGTERM, then SIGKILL. */
  closeGraceMs?: number;
  /** Where the wait after a closed stdout gets its time (STYLE: time is an argument). */
  clock?: Clock;
}

/** How many stderr lines go into an error message. */
const STDERR_LINES_IN_ERRORS = 10;

/**
 * How long a server that closed its stdout gets to exit: a crash closes stdout a moment before the
 * exit is seen, and its exit code and stderr say more than "closed its stdout".
 */
export const EXIT_AFTER_STDOUT_MS = 250;

type ServerProcess = Subprocess<"pipe", "pipe", "pipe">;

/**
 * A server as a child process speaking newline-delimited JSON-RPC on stdin/stdout. stderr is read
 * all the time into a ring, so a chatty server never blocks on a full pipe, and its last lines
 * explain a crash. The child leads its own process group, so closing ends the whole tree.
 */
export class StdioTransport implements Transport {
  onMessage?: (value: unknown) => void;
  onClose?: (error: Error) => void;

  readonly description: string;
  readonly kind = "stdio" as const;
  readonly restartable = true;
  readonly stderr = new StderrRing();

  private process: ServerProcess | undefined;
  private writer: BatchedWriter | undefined;
  private closed: Promise<void> | undefined;
  private exitError: McpError | undefined;
  private stdoutDone: Promise<void> = Promise.resolve();
  private stderrDone: Promise<void> = Promise.resolve();
  private exitHandled: Promise<void> = Promise.resolve();
  private readonly graceMs: number;
  private readonly clock: Clock;
  /** Set while `close()` waits for the server to exit: called when the server sends a request meanwhile. */
  private askedWhileClosing: (() => void) | undefined;

  constructor(
    private readonly params: StdioServerParams,
    options: StdioTransportOptions = {},
  ) {
    this.description = `stdio: ${[params.command, ...params.args].join(" ")}`;
    this.graceMs = options.closeGraceMs ?? 2000;
    this.clock = options.clock ?? systemClock;
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }

  async start(): Promise<void> {
    if (this.process) throw new Error("StdioTransport.start() called twice");
    const { command, args, env, cwd, baseDir } = this.params;
    let child: ServerProcess;
    try {
      child = Bun.spawn([command, ...args], {
        env,
        cwd: baseDir === undefined ? cwd : resolve(baseDir, cwd ?? "."),
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        detached: startsOwnGroup(process.platform),
      });
    } catch (error) {
      throw new McpError(undefined, describeSpawnError(command, cwd, error), { cause: error });
    }
    this.process = child;
    this.writer = new BatchedWriter(child.stdin);
    trackGroup(child.pid);
    this.stdoutDone = this.readStdout(child.stdout);
    void this.stdoutDone.then(() => this.stdoutEnded(child));
    this.stderrDone = this.readStderr(child.stderr);
    this.exitHandled = child.exited.then((code) => this.handleExit(code, child.signalCode));
  }

  /** Resolves once the message is written to the server's stdin; per-message headers mean nothing here. */
  send(message: JsonRpcMessage): Promise<void> {
    return this.write(message);
  }

  stderrTail(lines: number): string[] {
    return this.stderr.tail(lines);
  }

  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    const child = this.process;
    this.failConnection(McpError.closed("the connection was closed"));
    if (!child) return;
    // Before the server may exit: then what it detached (setsid) no longer traces back to it.
    rememberDetachedDescendants(child.pid);
    // Stage 1: close stdin, which is how MCP asks a stdio server to stop. Most exit at once.
    try {
      child.stdin.end();
    } catch {
      // Already closed: the process is gone or going.
    }
    // A server that asks us something now waits for an answer that cannot come (its stdin is closed):
    // server-everything asks roots/list 350 ms after the handshake and then lingers. End it at once.
    const graceOver = new AbortController();
    const asking = new Promise<"asking">((resolve) => (this.askedWhileClosing = () => resolve("asking")));
    const exited = child.exited.then(() => "exited" as const);
    const grace = sleep(this.graceMs, graceOver.signal).then(() => "grace over" as const);
    const stage1 = await Promise.race([exited, asking, grace]);
    graceOver.abort();
    this.askedWhileClosing = undefined;
    // Stage 2 and 3: the leader may be gone while its children (an `sh -c` background job) live on.
    if (stage1 === "exited" && !(await waitForGroupExit(child.pid, 50))) signalGroup(child.pid, "SIGTERM");
    if (stage1 !== "exited") signalGroup(child.pid, "SIGTERM");
    if (!(await waitForGroupExit(child.pid, this.graceMs))) signalGroup(child.pid, "SIGKILL");
    untrackGroup(child.pid);
    await child.exited;
  }

  private async write(message: object): Promise<void> {
    const writer = this.writer;
    if (!writer) throw new McpError(undefined, "the server was not started");
    if (this.exitError) throw this.exitError;
    try {
      await writer.write(`${JSON.stringify(message)}\n`);
    } catch (error) {
      // A broken pipe means the server is exiting: its exit code and stderr say more than EPIPE.
      await settlesWithin(this.exitHandled, 1000);
      throw this.exitError ?? McpError.closed(`cannot write to the server: ${(error as Error).message}`);
    }
  }

  private async readStdout(stdout: ReadableStream<Uint8Array>): Promise<void> {
    const splitter = new TextLineSplitter();
    const onLine = (line: string) => this.handleLine(line);
    try {
      for await (const chunk of stdout) {
        // A failed connection reads no more: what the server still writes would only cost memory.
        if (this.exitError && !this.closed) break;
        splitter.push(chunk, onLine);
        if (splitter.pendingLength > MAX_MESSAGE_CHARS) {
          // Memory must stay bounded whatever the server writes: a line this long is no message.
          this.failConnection(
            McpError.closed(`the server wrote more than ${MAX_MESSAGE_CHARS / 2 ** 20} MB without a newline; the connection was closed`),
          );
          void this.close();
          return;
        }
      }
      splitter.finish(onLine);
    } catch (error) {
      log.debug(`stdout of ${this.description} failed: ${(error as Error).message}`);
    }
  }

  /**
   * The server closed its stdout: nothing it is asked can be answered any more. One that is exiting
   * gets a moment, so that handleExit explains the end; one that lives on fails the connection at
   * once, instead of leaving every request to its timeout (a legacy server may close stdout on a
   * method it does not know, such as the era probe).
   */
  private async stdoutEnded(child: ServerProcess): Promise<void> {
    if (this.exitError || (await this.exitsWithin(child, EXIT_AFTER_STDOUT_MS)) || this.exitError) return;
    const tail = this.stderr.tail(STDERR_LINES_IN_ERRORS);
    const message = `the server closed its stdout (it is still running), so it can answer nothing more${tail.length ? `; its last stderr lines:\n${tail.join("\n")}` : ""}`;
    this.failConnection(McpError.closed(message));
  }

  private exitsWithin(child: ServerProcess, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => resolve(false), ms);
      void child.exited.then(() => {
        this.clock.clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private async readStderr(stderr: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stderr) this.stderr.push(chunk);
      this.stderr.end();
    } catch {
      // A broken stderr pipe loses diagnostics only.
    }
  }

  private handleLine(text: string): void {
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = parseMessage(text);
    } catch {
      log.debug(`${this.description}: skipped a line that is not JSON: ${text.slice(0, 200)}`);
      return;
    }
    if (this.closed) {
      if (isRequest(value)) this.askedWhileClosing?.();
      return;
    }
    forEachMessage(value, this.onMessage);
  }

  private async handleExit(code: number | null, signal: NodeJS.Signals | number | null): Promise<void> {
    // Answers already written before the exit are still in the pipe: read them first, briefly
    // (a grandchild holding stdout open must not keep the callers waiting).
    await settlesWithin(Promise.all([this.stdoutDone, this.stderrDone]), 100);
    if (this.closed) return;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const tail = this.stderr.tail(STDERR_LINES_IN_ERRORS);
    const message = `the server ${how}${tail.length ? `; its last stderr lines:\n${tail.join("\n")}` : ""}`;
    this.failConnection(McpError.closed(message));
    // Its children may live on in the group; they belong to no one now.
    if (this.process) {
      signalGroup(this.process.pid, "SIGTERM");
      untrackGroup(this.process.pid);
    }
  }

  /** The connection is unusable: every later write fails with `error`, and whoever listens hears it once. */
  private failConnection(error: McpError): void {
    if (this.exitError) return;
    this.exitError = error;
    this.onClose?.(error);
  }
}

function describeSpawnError(command: string, cwd: string | undefined, error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === "ENOENT") {
    return `command not found: '${command}'${cwd ? ` (cwd: ${cwd})` : ""}; check "command" and PATH`;
  }
  if (code === "EACCES") return `cannot execute '${command}': permission denied (is it executable?)`;
  return `cannot start '${command}': ${(error as Error).message}`;
}
