/**
 * Raw JSON-RPC peers for the fixture tests: they speak to a server byte for byte (no client of
 * ours, no SDK), so a test sees exactly what the fixture sends. `StdioPeer` drives a child over
 * NDJSON; `post` and `readSse` do one HTTP exchange.
 */
import type { Subprocess } from "bun";
import { waitFor } from "./wait-for.ts";

export const MODERN = "2026-07-28";

/** The `_meta` every modern request carries; `extra` adds or overrides keys. */
export function modernMeta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "fixture-test", version: "1" },
    ...extra,
  };
}

export class StdioPeer {
  readonly messages: any[] = [];
  stderr = "";
  private readonly child: Subprocess<"pipe", "pipe", "pipe">;

  constructor(argv: string[], env: Record<string, string> = {}) {
    const child = Bun.spawn(argv, { stdin: "pipe", stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } as Record<string, string> });
    this.child = child;
    void this.read();
    void (async () => {
      for await (const chunk of child.stderr) this.stderr += new TextDecoder().decode(chunk);
    })();
  }

  send(message: object): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    this.child.stdin.flush();
  }

  /** Sends a request and waits for the response with its id. */
  async request(id: number | string, method: string, params: object = {}): Promise<any> {
    this.send({ id, method, params });
    return this.next((m) => m.id === id && (m.result !== undefined || m.error !== undefined), `the response to ${method} (id ${id})`);
  }

  /** The first message received that matches (now or later). */
  next(match: (message: any) => boolean, what: string): Promise<any> {
    return waitFor(() => this.messages.find(match), () => `${what}; received: ${JSON.stringify(this.messages)}; stderr: ${this.stderr}`, { timeoutMs: 5000 });
  }

  async close(): Promise<number> {
    this.child.stdin.end();
    return this.child.exited;
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }

  private async read(): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of this.child.stdout) {
      buffered += decoder.decode(chunk, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) if (line.trim()) this.messages.push(JSON.parse(line));
    }
  }
}

/** The headers a modern client sends with this body: protocol version, method, name. */
export function modernHeaders(body: any): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": body.params?._meta?.["io.modelcontextprotocol/protocolVersion"] ?? MODERN,
    "Mcp-Method": body.method,
  };
  const name = body.params?.name ?? body.params?.uri;
  if (typeof name === "string") headers["Mcp-Name"] = name;
  return headers;
}

/** A response whose JSON body a test reads freely. */
export type JsonResponse = Omit<Response, "json"> & { json(): Promise<any> };

/**
 * POSTs one JSON-RPC message with the modern headers (`headers` adds, a null value removes).
 * `signal` lets a test close the answer's stream.
 */
export function post(url: string, body: object, headers: Record<string, string | null> = {}, signal?: AbortSignal): Promise<JsonResponse> {
  const message = { jsonrpc: "2.0", ...body };
  const all: Record<string, string> = modernHeaders(message);
  for (const [name, value] of Object.entries(headers)) {
    for (const existing of Object.keys(all)) if (existing.toLowerCase() === name.toLowerCase()) delete all[existing];
    if (value !== null) all[name] = value;
  }
  return fetch(url, { method: "POST", headers: all, body: JSON.stringify(message), signal }) as Promise<JsonResponse>;
}

/** The JSON-RPC messages of an SSE answer, read as they come; `onMessage` may stop early by returning true. */
export async function readSse(response: JsonResponse, onMessage: (message: any) => boolean | void = () => {}): Promise<any[]> {
  const messages: any[] = [];
  const decoder = new TextDecoder();
  let buffered = "";
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return messages;
    buffered += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      if (!data) continue;
      const message = JSON.parse(data);
      messages.push(message);
      if (onMessage(message) === true) {
        await reader.cancel();
        return messages;
      }
    }
  }
}

/** `=?base64?...?=` of a value, as a modern client sends one that is not plain ASCII. */
export function sentinel(value: string): string {
  return `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}
