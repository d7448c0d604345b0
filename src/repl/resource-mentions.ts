import { untilAborted } from "../system/until-aborted.ts";
import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { contentsSize, isCancellation, type McpClient, resourceBlocks } from "../mcp/index.ts";
import { cutText } from "../system/cut-text.ts";
import { firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { AgentRuntime } from "./agent-runtime.ts";
import type { ResourceUpdates } from "./resource-updates.ts";
import type { Style } from "./tool-call-line.ts";

/** What mentions need of the pool: the connected servers that offer resources. */
export interface ResourceServerSource {
  serversOffering(feature: "resources"): Array<{ name: string; client: McpClient }>;
}

/** One `@server:uri` in a prompt, for a server that offers resources. */
export interface ResourceMention {
  server: string;
  uri: string;
  client: McpClient;
}

export type ExpandedMentions =
  | {
      /** The prompt as typed, then each resource's blocks. */
      blocks: PromptBlock[];
      /** `everything:demo://resource/static/document/a.md (1.2 KB)`, one per resource (not sanitized). */
      attached: string[];
      /** The resources attached, to subscribe to their changes. */
      resources: ResourceMention[];
    }
  | { error: string };

/** A prompt is the user's, not a server's: still, a prompt naming more than this is a slip, not a request. */
const MAX_MENTIONS = 20;

/** `@name:` at the start of a word; the uri runs to the next blank, and `,.;:)` at its end are the sentence's. */
const MENTION = /(?<=^|\s)@([A-Za-z0-9_-]+):(\S+)/g;

/** The server names a prompt's `@name:…` words name, whether or not such servers exist. */
export function mentionedServers(text: string): string[] {
  return [...text.matchAll(MENTION)].map(([, server = ""]) => server);
}

/**
 * The resources a prompt mentions, in order, each once. A mention of a server that is not connected
 * or offers no resources is plain text, as an email address is (`me@example.com` is no mention at all).
 */
export function findResourceMentions(text: string, source: ResourceServerSource): ResourceMention[] {
  const servers = new Map(source.serversOffering("resources").map((s) => [s.name, s.client]));
  const found = new Map<string, ResourceMention>();
  for (const [, server = "", rawUri = ""] of text.matchAll(MENTION)) {
    const uri = rawUri.replace(/[,.;:)]+$/, "");
    const client = servers.get(server);
    if (client && uri) found.set(`${server}\u0000${uri}`, { server, uri, client });
  }
  return [...found.values()];
}

/**
 * Reads every resource a prompt mentions and attaches it: the prompt text stays as typed and the
 * resources follow as blocks (see resourceBlocks). One read that fails fails the whole: the turn is
 * not sent, and the error names the mention, so the user can fix it and send again.
 */
export async function expandResourceMentions(text: string, source: ResourceServerSource, signal?: AbortSignal): Promise<ExpandedMentions> {
  const mentions = findResourceMentions(text, source);
  if (mentions.length > MAX_MENTIONS) return { error: `a prompt may attach at most ${MAX_MENTIONS} resources; this one mentions ${mentions.length}` };
  const reads = await Promise.allSettled(mentions.map((m) => m.client.readResource(m.uri, { signal })));
  const blocks: PromptBlock[] = [{ type: "text", text }];
  const attached: string[] = [];
  for (const [i, read] of reads.entries()) {
    const { server, uri } = mentions[i] as ResourceMention;
    const named = `@${server}:${cutText(uri, 200)}`;
    if (read.status === "rejected") {
      const reason = isCancellation(read.reason) ? "cancelled" : ((read.reason as Error)?.message ?? String(read.reason));
      return { error: `could not attach ${named}: ${reason}` };
    }
    blocks.push(...resourceBlocks(server, read.value.contents));
    attached.push(`${server}:${cutText(uri, 200)} (${contentsSize(read.value.contents)})`);
  }
  return { blocks, attached, resources: mentions };
}

export interface AttachContext {
  runtime: AgentRuntime;
  /** The turn's: Ctrl-C gives up waiting for the servers and the reads. */
  signal: AbortSignal;
  print(line: string): void;
  style: Style;
  updates: ResourceUpdates;
}

/**
 * The REPL's side of mentions: what to send for a typed prompt (the text itself when it mentions no
 * resource), with a `⎿ attached …` line per resource; undefined when the turn must not be sent, after
 * a line saying why. A mention of a server still connecting waits for it (Ctrl-C gives up).
 */
export async function attachResources(text: string, { runtime, signal, print, style, updates }: AttachContext): Promise<string | PromptBlock[] | undefined> {
  const mentioned = new Set(mentionedServers(text));
  if (mentioned.size === 0) return text;
  if (runtime.pool.status().some((s) => s.state === "pending" && mentioned.has(s.name))) {
    await untilAborted(runtime.connectMcp(), signal);
  }
  const expanded = await expandResourceMentions(text, runtime.pool, signal);
  if ("error" in expanded) {
    print(signal.aborted ? style.dim("⎿ Cancelled.") : style.red(`error: ${sanitizeForTerminal(firstLine(expanded.error))} (nothing was sent)`));
    return undefined;
  }
  for (const attached of expanded.attached) print(style.dim(`⎿ attached ${sanitizeForTerminal(attached)}`));
  void updates.watch(expanded.resources);
  return expanded.attached.length ? expanded.blocks : text;
}
