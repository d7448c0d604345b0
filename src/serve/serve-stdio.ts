import type { RootsProvider, ServerPool, ServerStatus } from "../mcp/index.ts";
import { ServeConnection } from "./serve-connection.ts";
import type { ServedBuiltins } from "./served-builtins.ts";
import { ServeMethods } from "./serve-methods.ts";
import { StdioDownstream, type StdioStreams } from "./stdio-downstream.ts";

/** This process's stdin and stdout: stdout carries JSON-RPC only (every log line goes to stderr). */
export function processStreams(): StdioStreams {
  // One write at a time, each after the last one was taken: the order of a call's progress and its
  // result is the order the client reads them in, whatever the pipe's backpressure does.
  let previous: Promise<void> = Promise.resolve();
  const writeOne = (text: string) => new Promise<void>((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));
  return {
    input: Bun.stdin.stream(),
    write: (text) => (previous = previous.catch(() => {}).then(() => writeOne(text))),
  };
}

/**
 * `cat-code mcp serve` over stdio: answers one client on `streams` with the servers of `pool`,
 * until the client closes its end. The servers connect meanwhile: the handshake is answered at
 * once, the lists wait for the connects to be over.
 */
export async function serveStdio(pool: ServerPool, options: { streams?: StdioStreams; builtins?: ServedBuiltins; roots?: RootsProvider; namespaced?: boolean } = {}): Promise<void> {
  const streams = options.streams ?? processStreams();
  const methods = new ServeMethods(pool, pool.connectAll(), { builtins: options.builtins, namespaced: options.namespaced });
  const releaseQuestions = methods.questions.attach(pool);
  const connection = new ServeConnection(new StdioDownstream(streams), methods, pool, {
    instructions: () => unavailableServers(pool.status(), options.namespaced),
    roots: options.roots,
  });
  await connection.start();
  await connection.done;
  await connection.close();
  releaseQuestions();
}

/**
 * What the client is told of the servers that are configured but not served now: one that needs a
 * sign-in, with the command that gives it; one that failed, with why. Undefined when all are served.
 * `namespaced: false` (`--no-namespace`, one server): its tools keep their own names, and the text says so.
 */
export function unavailableServers(statuses: ServerStatus[], namespaced = true): string | undefined {
  const lines = statuses.flatMap((status) => {
    switch (status.state) {
      case "needs-auth":
        return [`- ${status.name}: ${status.reason}`];
      case "failed":
        return [`- ${status.name}: not connected: ${status.reason.split("\n")[0]}`];
      default:
        return [];
    }
  });
  if (lines.length === 0) return undefined;
  const naming = namespaced ? "the tools of its configured MCP servers as <server>__<tool>" : "the tools of one MCP server under their own names";
  return `cat-code serves ${naming}. Not available now:\n${lines.join("\n")}`;
}
