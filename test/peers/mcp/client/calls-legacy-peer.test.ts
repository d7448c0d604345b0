/**
 * What happens inside a call against a real handshake-revision server no one here wrote
 * (`@modelcontextprotocol/server-everything` over stdio): its elicitation/create server request,
 * progress, roots/list and roots/list_changed.
 */
import { describe, expect, test } from "bun:test";
import { basename, join } from "node:path";
import { mkdirSync } from "node:fs";
import type { ElicitationRequest } from "../../../../src/mcp/client/elicitation.ts";
import { McpClient, type McpClientOptions } from "../../../../src/mcp/client/mcp-client.ts";
import type { ProgressUpdate } from "../../../../src/mcp/client/progress.ts";
import { RootsProvider } from "../../../../src/mcp/client/roots.ts";
import { StdioTransport } from "../../../../src/mcp/transport/stdio-transport.ts";
import { EVERYTHING_SERVER, tempDir } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

async function connect(options: McpClientOptions): Promise<McpClient> {
  const transport = new StdioTransport({ command: "node", args: [EVERYTHING_SERVER, "stdio"], env: process.env as Record<string, string> });
  const client = new McpClient(transport, { name: "everything", ...options });
  await client.connect();
  expect(client.era).toBe("legacy");
  return client;
}
const allText = (result: { content: unknown[] }) => result.content.map((block) => (block as { text?: string }).text ?? "").join("\n");

describe("server-everything over stdio", () => {
  test("trigger-elicitation-request: the form reaches the handler and the accepted answer reaches the tool", async () => {
    const asked: ElicitationRequest[] = [];
    const client = await connect({
      elicitation: async (request) => {
        asked.push(request);
        return { action: "accept", content: { name: "Ada Lovelace", check: true, integer: 7, untitledMultipleSelectEnum: ["Piano"] } };
      },
    });
    try {
      const text = allText(await client.callTool("trigger-elicitation-request", {}));
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ server: "everything", mode: "form" });
      expect(text).toContain("Ada Lovelace");
    } finally {
      await client.close();
    }
  });

  test("trigger-elicitation-request declined: the tool hears the decline", async () => {
    const client = await connect({ elicitation: async () => ({ action: "decline" }) });
    try {
      expect(allText(await client.callTool("trigger-elicitation-request", {})).toLowerCase()).toContain("decline");
    } finally {
      await client.close();
    }
  });

  test("trigger-long-running-operation: each step's progress reaches onProgress", async () => {
    const client = await connect({});
    try {
      const updates: ProgressUpdate[] = [];
      await client.callTool("trigger-long-running-operation", { duration: 0.2, steps: 2 }, { onProgress: (update) => updates.push(update) });
      expect(updates).toEqual([
        { progress: 1, total: 2 },
        { progress: 2, total: 2 },
      ]);
    } finally {
      await client.close();
    }
  });

  test("get-roots-list shows our roots, and a root added later after roots/list_changed", async () => {
    const dir = tempDir("cat-code-everything-roots-");
    const roots = new RootsProvider(dir);
    const client = await connect({ roots });
    try {
      expect(allText(await client.callTool("get-roots-list", {}))).toContain(basename(dir));
      const added = join(dir, "added-later");
      mkdirSync(added);
      roots.add(added);
      await waitFor(async () => allText(await client.callTool("get-roots-list", {})).includes("added-later"), "the added root in get-roots-list");
    } finally {
      await client.close();
    }
  });
});
