import type { AgentLoop } from "../agent/agent-loop.ts";
import { openSessionFile, recordInto, type ResumedSession } from "../agent/session/session-recording.ts";
import type { SessionFile } from "../agent/session/session-file.ts";
import { resumedLines } from "../terminal/resumed-view.ts";

/**
 * The REPL's saved session: a new file, or the resumed one. The agent is made at the first prompt
 * (a missing key matters only then), so recording starts when it is; what a resumed session said
 * is shown at once, compactly, under the banner.
 */
export class ReplSession {
  /** None without a home to save in (a REPL driven in-process by a test). */
  private readonly file: SessionFile | undefined;

  constructor(private readonly options: { home?: string; cwd: string; model: string; resumed?: ResumedSession; onError: (line: string) => void }) {
    this.file = options.home === undefined ? undefined : openSessionFile({ ...options, home: options.home });
  }

  /** Called once, when the agent is made: loads the resumed conversation into it and starts saving. */
  record(agent: AgentLoop): void {
    if (this.file) recordInto(this.file, agent, this.options.resumed);
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
