import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { attachFiles } from "../../../src/repl/file-mentions.ts";
import { pastedPaths } from "../../../src/repl/image-attachment.ts";
import { base64, gif, jpeg, png, webp } from "../../helpers/image-bytes.ts";

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "image-mentions-"));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

test("@screenshot.png attaches the image as an image block after a line naming it", async () => {
  writeFileSync(join(cwd, "screenshot.png"), png(64, 32, 100));
  const found = await attachFiles("what is wrong in @screenshot.png?", { cwd, servers: [] });
  expect(found.blocks).toEqual([
    { type: "text", text: "The user attached the image screenshot.png: [image screenshot.png 64×32 png]" },
    { type: "image", mediaType: "image/png", data: base64(png(64, 32, 100)) },
  ]);
  expect(found.notes).toEqual(["attached screenshot.png (image 64×32 png, 133 B)"]);
});

test("the bytes decide the type, not the name: JPEG, GIF and WebP too, whatever they are called", async () => {
  writeFileSync(join(cwd, "a.png"), jpeg(10, 20));
  writeFileSync(join(cwd, "b"), gif(3, 4));
  writeFileSync(join(cwd, "c.img"), webp("VP8L", 5, 6));
  const found = await attachFiles("@a.png @b @c.img", { cwd, servers: [] });
  expect(found.blocks.filter((block) => block.type === "image").map((block) => block.type === "image" && block.mediaType)).toEqual(["image/jpeg", "image/gif", "image/webp"]);
});

test("an image past the API's limits is not attached, and the note says why", async () => {
  writeFileSync(join(cwd, "wide.png"), png(9000, 10));
  const big = new Uint8Array(4 * 2 ** 20);
  big.set(png(10, 10));
  writeFileSync(join(cwd, "big.png"), big);
  const found = await attachFiles("@wide.png @big.png", { cwd, servers: [] });
  expect(found.blocks).toEqual([]);
  expect(found.notes).toEqual(["not attached: image wide.png: image/png, 33 B: not shown, 9000×10 px is over the 8000 px limit", "not attached: big.png is a 4.0 MB image; the model takes images of at most 3.8 MB"]);
});

test("a pasted absolute path of an image attaches it (quoted or with escaped spaces); a path of a text file stays text", async () => {
  mkdirSync(join(cwd, "shots"));
  writeFileSync(join(cwd, "shots", "my shot.png"), png(8, 8));
  writeFileSync(join(cwd, "notes.txt"), "plain");
  const pasted = join(cwd, "shots", "my shot.png");
  for (const prompt of [`look '${pasted}'`, `look "${pasted}"`, `look ${pasted.replace(/ /g, "\\ ")}`]) {
    const found = await attachFiles(prompt, { cwd, servers: [] });
    expect(found.notes).toEqual([`attached ${pasted} (image 8×8 png, 33 B)`]);
  }
  expect(await attachFiles(`see ${join(cwd, "notes.txt")} and /no/such/file.png`, { cwd, servers: [] })).toEqual({ blocks: [], notes: [] });
});

test("pastedPaths finds absolute paths only, not @ mentions or relative words", () => {
  expect(pastedPaths("a /x/y.png b @/z.png c/d.png '/q w.png' \"/e f.gif\" /g\\ h.jpg")).toEqual(["/x/y.png", "/q w.png", "/e f.gif", "/g h.jpg"]);
});
