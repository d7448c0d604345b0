import type { AgentLoop } from "../agent/agent-loop.ts";
import { openConversationLog, recordInto, type ResumedConversation } from "../agent/conversation-log/conversation-recording.ts";
import { ConversationLog } from "../agent/conversation-log/conversation-log.ts";
import { savedOutputsFolder, sessionFilesFolder } from "../agent/conversation-log/conversation-log-paths.ts";
import { resumedLines } from "../terminal/resumed-view.ts";

/**
 * The REPL's saved session: a new file, or the resumed one. The agent is made at the first prompt
 * (a missing key matters only then), so recording starts when it is; what a resumed session said
 * is shown at once, compactly, under the banner. `/clear` and `/resume` change the file the
 * conversation goes to (startNew, switchTo), leaving the one before as it was: resumable later.
 */
export class ReplRecording {
  /** None without a home to save in (a REPL driven in-process by a test). */
  private file: ConversationLog | undefined;
  private agent: AgentLoop | undefined;
  /** The session to load into the agent once it is made (--resume, or /resume before the first prompt). */
  private resumed: ResumedConversation | undefined;

  constructor(
    private readonly options: {
      home?: string;
      cwd: string;
      model: string;
      /** The model now (after /model): a session /clear starts is headed with it. */
      currentModel?: () => string;
      resumed?: ResumedConversation;
      onError: (line: string) => void;
    },
  ) {
    this.resumed = options.resumed;
    // Not currentModel: what it reads may not exist yet while the REPL is being put together.
    this.file = this.open(options.resumed, options.model);
  }

  /** The saved session's id; undefined when nothing is saved. */
  get id(): string | undefined {
    return this.file?.id;
  }

  /** True when the session has something to resume: a message said, or a resumed session not yet loaded. */
  get hasConversation(): boolean {
    if (!this.file) return false;
    return this.agent ? this.agent.conversation.length > 0 : (this.resumed?.read.messages.length ?? 0) > 0;
  }

  /** Called once, when the agent is made: loads the resumed conversation into it and starts saving. */
  record(agent: AgentLoop): void {
    this.agent = agent;
    if (this.file) recordInto(this.file, agent, this.resumed);
    else if (this.resumed) agent.conversation.load(this.resumed.read.messages);
  }

  /** Where this session saves tool outputs too large for the model; none when it is not saved. */
  outputsFolder(): string | undefined {
    return this.file && savedOutputsFolder(this.file.path);
  }

  /** The session as hooks are told of it; empty without a file. */
  session(): { sessionId?: string; transcriptPath?: string } {
    return { sessionId: this.file?.id, transcriptPath: this.file?.path };
  }

  /** The session's own folder (checkpoints live there); none when it is not saved. */
  sessionFolder(): string | undefined {
    return this.file && sessionFilesFolder(this.file.path);
  }

  /** The lines that show a resumed conversation; none for a new session. */
  resumedLines(columns: number | undefined): string[] {
    const resumed = this.resumed;
    return resumed && this.file ? resumedLines({ id: this.file.id, messages: resumed.read.messages, columns }) : [];
  }

  /**
   * `/clear`: the file so far hears no more (it stays as it was, resumable later); `replace` empties
   * the conversation and what lives beside it (AgentRuntime.clearConversation); a new file records
   * what follows.
   */
  startNew(replace: () => void): void {
    this.file?.close();
    this.resumed = undefined;
    replace();
    this.file = this.open(undefined);
    if (this.file && this.agent) this.file.attach(this.agent.conversation, this.agent.usage, this.agent.tools);
  }

  /** `/resume`: the conversation becomes the chosen session's (its loaded tools too), saved on in its file. */
  switchTo(resumed: ResumedConversation): void {
    this.file?.close();
    this.resumed = resumed;
    this.file = this.open(resumed);
    if (!this.agent) return;
    if (this.file) recordInto(this.file, this.agent, resumed);
    else this.agent.conversation.load(resumed.read.messages);
  }

  close(): void {
    this.file?.close();
  }

  private open(resumed: ResumedConversation | undefined, model = this.options.currentModel?.() ?? this.options.model): ConversationLog | undefined {
    const { home, cwd, onError } = this.options;
    if (home === undefined) return undefined;
    return resumed ? openConversationLog({ home, cwd, model, onError, resumed }) : ConversationLog.create({ home, cwd, model, onError });
  }
}
