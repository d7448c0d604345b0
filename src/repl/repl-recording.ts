import type { AgentLoop } from "../agent/agent-loop.ts";
import { openConversationLog, recordInto, type ResumedConversation } from "../agent/conversation-log/conversation-recording.ts";
import type { ConversationLog } from "../agent/conversation-log/conversation-log.ts";
import { savedOutputsFolder, sessionFilesFolder } from "../agent/conversation-log/conversation-log-paths.ts";
import { resumedLines } from "../terminal/resumed-view.ts";

/**
 * The REPL's saved session: a new file, or the resumed one. The agent is made at the first prompt
 * (a missing key matters only then), so recording starts when it is; what a resumed session said
 * is shown at once, compactly, under the banner.
 */
export class ReplRecording {
  /** None without a home to save in (a REPL driven in-process by a test). */
  private readonly file: ConversationLog | undefined;

  constructor(private readonly options: { home?: string; cwd: string; model: string; resumed?: ResumedConversation; onError: (line: string) => void }) {
    this.file = options.home === undefined ? undefined : openConversationLog({ ...options, home: options.home });
  }

  /** Called once, when the agent is made: loads the resumed conversation into it and starts saving. */
  record(agent: AgentLoop): void {
    if (this.file) recordInto(this.file, agent, this.options.resumed);
  }

  /** Where this session saves tool outputs too large for the model; none when it is not saved. */
  outputsFolder(): string | undefined {
    return this.file && savedOutputsFolder(this.file.path);
  }

  /** The session's own folder (checkpoints live there); none when it is not saved. */
  sessionFolder(): string | undefined {
    return this.file && sessionFilesFolder(this.file.path);
  }

  /** The lines that show a resumed conversation; none for a new session. */
  resumedLines(columns: number | undefined): string[] {
    const resumed = this.options.resumed;
    return resumed && this.file ? resumedLines({ id: this.file.id, messages: resumed.read.messages, columns }) : [];
  }

  close(): void {
    this.file?.close();
  }
}
