import { describe, expect, test } from "bun:test";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { parseServerEntry } from "../../../src/mcp/config/load-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { reply, text, toolResultsOf, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { BUN, EVERYTHING_SERVER } from "../../helpers/paths.ts";
import { agentWith, current, fakeTool, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";
import { base64, png } from "../../helpers/image-bytes.ts";

stopAfterEach();

const PNG = base64(png(64, 64));

describe("what the model receives: blocks in a user turn, images in a tool result", () => {
  test("AgentLoop.run(blocks): text and image blocks become the user message's content, in order", async () => {
    const agent = agentWith([reply(text("A square."))], new ToolRegistry());
    const outcome = await agent.run([
      { type: "text", text: "What is this?" },
      { type: "image", mediaType: "image/png", data: PNG },
      { type: "text", text: "" },
      { type: "text", text: "Be brief." },
    ]);
    expect(outcome).toMatchObject({ status: "done", text: "A square." });
    expect(standIn().requests[0]!.body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          // The last block is the prompt-caching breakpoint.
          { type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } },
        ],
      },
    ]);
  });

  test("a tool result with images: the tool_result's content is its text, then the image blocks", async () => {
    const registry = new ToolRegistry();
    const shot = fakeTool("screenshot", { result: () => ({ content: "[image 64×64 png]", isError: false, images: [{ type: "image", mediaType: "image/png", data: PNG }] }) });
    const plain = fakeTool("plain");
    registry.register(shot.tool);
    registry.register(plain.tool);
    const agent = agentWith([reply(toolUse("screenshot", {}), toolUse("plain", {})), reply(text("done"))], registry);
    await agent.run("take a screenshot");
    const [withImage, withoutImage] = toolResultsOf(standIn().requests[1]!);
    expect(withImage!.content).toEqual([
      { type: "text", text: "[image 64×64 png]" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
    ]);
    // A result without images stays a plain string, as before.
    expect(withoutImage!.content).toBe("plain ran");
  });

  test("server-everything's get-tiny-image: its PNG reaches the model as an image block of the tool_result", async () => {
    const entry = parseServerEntry("everything", { command: BUN, args: [EVERYTHING_SERVER, "stdio"] }, "flag", "test", {});
    const pool = (current.pool = new ServerPool([entry]));
    await pool.connectAll();
    const registry = new ToolRegistry();
    pool.registerInto(registry);
    const agent = agentWith([reply(toolUse("mcp__everything__get-tiny-image", {})), reply(text("a logo"))], registry);
    await agent.run("show me the tiny image");
    const [result] = toolResultsOf(standIn().requests[1]!);
    const content = result!.content as { type: string; text?: string; source?: { media_type: string; data: string } }[];
    expect(content.map((block) => block.type)).toEqual(["text", "image"]);
    // The text keeps a line where the image was; the image itself is not in the text.
    expect(content[0]!.text).toContain("[image 20×20 png]");
    expect(content[0]!.text).not.toContain("iVBORw0KGgo");
    expect(content[1]!.source!.media_type).toBe("image/png");
    expect(content[1]!.source!.data.startsWith("iVBORw0KGgo")).toBe(true);
  }, 30_000);
});
