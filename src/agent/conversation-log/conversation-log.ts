import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, writeSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { Conversation, ConversationChange } from "../conversation.ts";
import type { TokenUsage } from "../usage.ts";
import type { LoggedConversation } from "./read-conversation-log.ts";
import { encodeLine } from "./conversation-log-line.ts";
import { conversationLogPath } from "./conversation-log-paths.ts";

/** What the file needs of the usage meter: to hear each request's usage as it is added. */
export interface UsageSource {
  onAdd: ((model: string, usage: TokenUsage) => void) | undefined;
}

/** What the file needs of the request's tools: to hear which deferred tools are loaded (RequestTools). */
export interface LoadedToolsSource {
  onLoadedChange(listener: (names: string[]) => void): () => void;
}

export interface ConversationLogOptions {
  home: string;
  cwd: string;
  model: string;
  /** Saving is a convenience: a failure to write is said once here, and the session goes on unsaved. */
  onError?: (message: string) => void;
}

/**
 * One session saved as it goes: `<home>/sessions/<project-hash>/<id>.jsonl`, a line per change of
 * the conversation and per request's usage, written at once (a crash loses at most the line being
 * written). The file is 0600 in a 0700 folder: it holds everything said and every tool's output.
 * Nothing is written until the conversation first changes, so a REPL opened and closed leaves no file.
 */
export class ConversationLog {
  readonly id: string;
  readonly path: string;
  private fd: number | undefined;
  private failed = false;
  /** Closed for good: what it still hears is dropped, and the file is never opened again. */
  private closed = false;
  /** Undoes `attach`: the sources it listens to stop telling this file. */
  private detach: () => void = () => {};
  /** Lines to write before the first change: the header, and what a resumed session starts from. */
  private opening: string[];

  private constructor(id: string, path: string, opening: string[], private readonly onError: ((message: string) => void) | undefined) {
    this.id = id;
    this.path = path;
    this.opening = opening;
  }

  static create(options: ConversationLogOptions): ConversationLog {
    const id = crypto.randomUUID();
    const header = encodeLine({ type: "session", version: 1, id, cwd: options.cwd, model: options.model, created: new Date().toISOString() });
    return new ConversationLog(id, conversationLogPath(options.home, options.cwd, id), [header], options.onError);
  }

  /**
   * Goes on with a session that was read back. A clean file is appended to (the id stays, so a
   * script's `--resume <id>` keeps one session); a file read only up to a bad line is continued in
   * a new one, since lines after the bad one would never be read. Either way the file then replays
   * to exactly the conversation that was loaded.
   */
  static resume(path: string, read: LoggedConversation, options: ConversationLogOptions): ConversationLog {
    if (read.clean && read.id) {
      const lines = read.repaired ? [encodeLine({ type: "reset", messages: read.messages })] : [];
      const file = new ConversationLog(read.id, path, lines, options.onError);
      if (lines.length) file.flush();
      return file;
    }
    const file = ConversationLog.create(options);
    file.opening.push(encodeLine({ type: "reset", messages: read.messages }));
    for (const entry of read.usage) file.opening.push(encodeLine({ type: "usage", ...entry }));
    if (read.loadedTools.length) file.opening.push(encodeLine({ type: "tools-loaded", names: read.loadedTools }));
    file.flush();
    return file;
  }

  /**
   * Writes every change of this conversation, every usage the meter adds, and the loaded tools, from
   * now on, until `close` (which stops all three: a session /clear or /resume left stays as it was).
   */
  attach(conversation: Conversation, usage: UsageSource, tools?: LoadedToolsSource): void {
    const onChange = (change: ConversationChange) => this.write(lineOf(change));
    const onAdd = (model: string, tokens: TokenUsage) => this.write(encodeLine({ type: "usage", model, usage: tokens }));
    conversation.onChange = onChange;
    usage.onAdd = onAdd;
    const stopTools = tools?.onLoadedChange((names) => this.write(encodeLine({ type: "tools-loaded", names })));
    this.detach = () => {
      // Only its own: another file may have been attached since.
      if (conversation.onChange === onChange) conversation.onChange = undefined;
      if (usage.onAdd === onAdd) usage.onAdd = undefined;
      stopTools?.();
    };
  }

  /** Stops listening and closes the file; safe to call twice. Nothing is written to it after. */
  close(): void {
    this.closed = true;
    this.detach();
    this.detach = () => {};
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private write(line: string): void {
    if (this.closed) return;
    this.opening.push(line);
    this.flush();
  }

  private flush(): void {
    if (this.failed || this.closed) return;
    try {
      this.fd ??= openForAppend(this.path);
      for (const line of this.opening.splice(0)) writeSync(this.fd, line);
    } catch (error) {
      this.failed = true;
      this.opening = [];
      this.onError?.(`the session could not be saved to ${basename(this.path)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); it goes on unsaved`);
    }
  }
}

function openForAppend(path: string): number {
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  // mkdir's mode only applies to a folder it makes, and the umask may have loosened it.
  chmodSync(folder, 0o700);
  const fd = openSync(path, "a", 0o600);
  // open's mode, too, only applies to a file it makes: a resumed file copied in loosely is tightened.
  fchmodSync(fd, 0o600);
  return fd;
}

function lineOf(change: ConversationChange): string {
  switch (change.kind) {
    case "push":
    case "update-last":
      return encodeLine({ type: change.kind, message: change.message });
    case "reset":
      return encodeLine({ type: "reset", messages: change.messages as MessageParam[] });
  }
}
