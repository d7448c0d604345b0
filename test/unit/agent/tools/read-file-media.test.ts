import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_PDF_PAGES, pdfPageCount } from "../../../../src/agent/tools/file-media.ts";
import { ReadFileTool } from "../../../../src/agent/tools/read-file-tool.ts";
import { outsideProject } from "../../../../src/agent/tools/project-scope.ts";
import { base64, gif, jpeg, png } from "../../../helpers/image-bytes.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "read-media-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A minimal PDF with `pages` page objects (what the page count reads). */
function pdf(pages: number): Uint8Array {
  const objects = Array.from({ length: pages }, (_, i) => `${i + 3} 0 obj << /Type /Page /Parent 2 0 R >> endobj`).join("\n");
  return new TextEncoder().encode(`%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Count ${pages} >> endobj\n${objects}\n%%EOF\n`);
}

test("an image comes back as an image block, whatever its name says: the bytes decide", async () => {
  writeFileSync(join(dir, "shot.txt"), png(64, 32, 100));
  const result = await new ReadFileTool(dir).execute({ path: "shot.txt" });
  expect(result).toEqual({ content: "[image shot.txt 64×32 png]", isError: false, images: [{ type: "image", mediaType: "image/png", data: base64(png(64, 32, 100)) }] });
  writeFileSync(join(dir, "photo.png"), jpeg(800, 600));
  expect((await new ReadFileTool(dir).execute({ path: "photo.png" })).images?.[0]?.mediaType).toBe("image/jpeg");
});

test("an image past the API's limits is refused with why, and nothing is sent", async () => {
  writeFileSync(join(dir, "huge.gif"), gif(9000, 100));
  const result = await new ReadFileTool(dir).execute({ path: "huge.gif" });
  expect(result.isError).toBe(true);
  expect(result.images).toBeUndefined();
  expect(result.content).toContain("9000×100 px is over the 8000 px limit");
  const big = new Uint8Array(4 * 2 ** 20);
  big.set(png(10, 10));
  writeFileSync(join(dir, "big.png"), big);
  expect((await new ReadFileTool(dir).execute({ path: "big.png" })).content).toContain("over the 3.8 MB limit");
});

test("a PDF comes back as a document block with its size and pages", async () => {
  writeFileSync(join(dir, "spec.pdf"), pdf(3));
  const result = await new ReadFileTool(dir).execute({ path: "spec.pdf" });
  expect(result.content).toMatch(/^\[document spec\.pdf: PDF, \d+ B, 3 page\(s\)\]$/);
  expect(result.documents).toEqual([{ type: "document", mediaType: "application/pdf", data: base64(pdf(3)) }]);
});

test("a PDF of more pages than the API takes is refused, saying how to read part of it", async () => {
  writeFileSync(join(dir, "book.pdf"), pdf(MAX_PDF_PAGES + 1));
  const result = await new ReadFileTool(dir).execute({ path: "book.pdf" });
  expect(result).toEqual({ content: `Error: book.pdf is a PDF of about ${MAX_PDF_PAGES + 1} pages; the model takes at most ${MAX_PDF_PAGES} per document: extract the pages you need (e.g. bash: pdftotext -f 1 -l 20 book.pdf -)`, isError: true });
});

test("the page count reads page objects, not the page tree", () => {
  expect(pdfPageCount(pdf(7))).toBe(7);
  expect(pdfPageCount(new TextEncoder().encode("%PDF-1.7 /Type /Pages"))).toBe(0);
});

test("read_file and grep read the session's saved outputs without asking; elsewhere outside the project they ask", async () => {
  const saved = join(dir, "home", "sessions", "x", "tool-outputs");
  const project = join(dir, "project");
  for (const folder of [saved, project]) await Bun.write(join(folder, "keep"), "");
  expect(await outsideProject(project, join(saved, "toolu_1.txt"), () => saved)).toBe(false);
  expect(await outsideProject(project, join(dir, "home", "secrets"), () => saved)).toBe(true);
  expect(await outsideProject(project, join(saved, "toolu_1.txt"))).toBe(true);
});
