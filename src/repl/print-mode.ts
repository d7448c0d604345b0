import { AgentError } from "../agent/agent-error.ts";
import { allowAll, declineAll } from "../agent/permission.ts";
import { CliError, ExitCode } from "../terminal/cli-error.ts";
import { printResult } from "../terminal/output.ts";
import { declinedElicitation } from "../terminal/declined-elicitation.ts";
import { ServerLogLines } from "../terminal/server-log-lines.ts";
import { StatusLine } from "../terminal/status-line.ts";
import { firstLine } from "../terminal/terminal-text.ts";
import { log } from "../log.ts";
import type { McpToolPool } from "../mcp/pool/tool-pool.ts";
import { AgentSession } from "./agent-session.ts";
import { signInNote } from "./mcp-startup.ts";
import { cliLoginHint } from "../terminal/render-status.ts";
import { TurnRenderer } from "./turn-renderer.ts";
import { expandResourceMentions } from "./resource-mentions.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

export interface PrintOptions {
  prompt: string;
  model: string;
  cwd: string;
  pool: McpToolPool;
  allowAll: boolean;
  maxTurns?: number;
  /** CAT_CODE_MCP_STARTUP_TIMEOUT: a cap on the wait for the servers; without it each is waited for up to its own timeout. */
  startupTimeoutMs?: number;
}

/**
 * `cat-code -p "<prompt>"`: one conversation to its end, the final text on stdout, tool calls on
 * stderr. There is no second turn, so it waits for the servers first; with nobody to ask, tools
 * that need permission are declined unless --allow-all is given.
 */
export async function runPrint(options: PrintOptions): Promise<number> {
  const session = new AgentSession({
    model: options.model,
    cwd: options.cwd,
    pool: options.pool,
    maxTurns: options.maxTurns,
    permissions: options.allowAll ? allowAll : declineAll,
  });
  // Tool calls go to stderr; a running tool's progress too, when stderr is a terminal.
  const renderer = new TurnRenderer(undefined, process.stderr, undefined, new StatusLine(process.stderr));
  // Nobody is there to answer a server's question: decline it, and say so between the run's lines.
  session.pool.elicitation = declinedElicitation((line) => renderer.notice(line));
  const logLines = new ServerLogLines();
  session.pool.onServerLog = (entry) => {
    const line = logLines.lineFor(entry);
    if (line !== undefined) renderer.notice(line);
  };
  try {
    const agent = session.agentOrMissingKey();
    if ("missing" in agent) throw CliError.usage(agent.missing);

    const timeoutMs = options.startupTimeoutMs;
    const startup = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    await session.connectMcp(startup);
    for (const status of session.pool.status()) {
      if (status.state !== "failed" && status.state !== "invalid") continue;
      // Our own deadline shows up as a cancelled handshake; say what really happened.
      const reason = startup?.aborted && /cancel/i.test(status.reason) ? `not ready within ${timeoutMs} ms` : firstLine(status.reason);
      log.warn(`MCP server '${status.name}' is not available: ${reason} (see cat-code mcp list)`);
    }
    // Not failures: each is one command away, and that command is what to say.
    const signIns = signInNote(session.pool.status().filter((s) => s.state === "needs-auth").map((s) => s.name), session.pool.authContext?.loginHint ?? cliLoginHint);
    if (signIns) log.warn(`MCP: ${signIns}`);

    // `@server:uri` attaches the resource; one that cannot be read stops the run before anything is sent.
    const expanded = await expandResourceMentions(options.prompt, session.pool);
    if ("error" in expanded) throw CliError.unavailable(`${expanded.error} (nothing was sent)`);
    for (const attached of expanded.attached) renderer.notice(`⎿ attached ${sanitizeForTerminal(attached)}`);

    let outcome;
    try {
      outcome = await agent.run(expanded.attached.length ? expanded.blocks : options.prompt, { observer: renderer });
    } catch (error) {
      if (error instanceof AgentError) throw CliError.unavailable(error.message);
      throw error;
    } finally {
      renderer.endLine();
    }
    if (outcome.status === "done") {
      await printResult(outcome.text);
      return ExitCode.Ok;
    }
    if (outcome.status === "max_turns") {
      if (outcome.text) await printResult(outcome.text);
      // Not a tool error as such, but the run did not finish: a script must not take it for an answer.
      console.error(`error: stopped after ${outcome.requests} model requests without a final answer (raise --max-turns)`);
      return ExitCode.ToolError;
    }
    return ExitCode.Unavailable;
  } finally {
    await session.close();
  }
}
