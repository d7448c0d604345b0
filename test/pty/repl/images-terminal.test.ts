import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolResultsOf, toolUse, type RecordedRequest } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { base64, png } from "../../helpers/image-bytes.ts";
import { tempDir } from "../../helpers/paths.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * Images and PDFs at a real terminal, checked where the model receives them (the Messages API
 * stand-in): `@shot.png` attaches the image (with a line saying so), read_file of an image and of a
 * PDF gives the model an image block and a document block.
 */
const repl = replUnderTest();

type Block = { type: string; text?: string; source?: { type: string; media_type: string; data: string }; content?: Block[] };

const PDF = "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R >> endobj\n%%EOF\n";

test("@shot.png attaches the image; read_file of a PNG and of a PDF gives the model an image and a document block", async () => {
  const cwd = tempDir();
  writeFileSync(join(cwd, "shot.png"), png(64, 32, 100));
  writeFileSync(join(cwd, "spec.pdf"), PDF);
  const standIn = repl.startStandIn([reply(toolUse("read_file", { path: "spec.pdf" }), toolUse("read_file", { path: "shot.png" })), reply(text("A chart and a spec."))]);
  const terminal = repl.pty({ cwd, home: join(cwd, "home"), mcpConfig: false });
  await terminal.waitFor((screen) => screen.endsWith(">"), "the prompt");
  terminal.type("what is in @shot.png?");
  await terminal.waitForText("⎿ attached shot.png (image 64×32 png, 133 B)");
  await terminal.waitForText("A chart and a spec.");

  const [first, second] = standIn.requests as [RecordedRequest, RecordedRequest];
  const turn = first.body.messages[0]!.content as Block[];
  expect(turn.map((block) => block.type)).toEqual(["text", "text", "image"]);
  expect(turn[1]!.text).toBe("The user attached the image shot.png: [image shot.png 64×32 png]");
  expect(turn[2]!.source).toEqual({ type: "base64", media_type: "image/png", data: base64(png(64, 32, 100)) });

  const [pdfResult, pngResult] = toolResultsOf(second) as Block[];
  expect(pdfResult!.content!.map((block) => block.type)).toEqual(["text", "document"]);
  expect(pdfResult!.content![0]!.text).toBe(`[document spec.pdf: PDF, ${PDF.length} B, 1 page(s)]`);
  expect(pdfResult!.content![1]!.source).toEqual({ type: "base64", media_type: "application/pdf", data: Buffer.from(PDF).toString("base64") });
  expect(pngResult!.content!.map((block) => block.type)).toEqual(["text", "image"]);
  expect(pngResult!.content![1]!.source?.media_type).toBe("image/png");
  terminal.type("/exit");
  await terminal.waitForText("[exit 0]");
}, 60_000);
