import { describe, expect, test } from "bun:test";
import { DEFAULT_IMAGE_LIMITS, describeImage, ImageBudget } from "../../../src/agent/image-budget.ts";
import { readBase64ImageHeader, readImageHeader } from "../../../src/agent/image-header.ts";
import { base64, gif, jpeg, png, webp } from "../../helpers/image-bytes.ts";

describe("readImageHeader: the real format and size from the first bytes", () => {
  test("PNG, GIF, JPEG (after a long EXIF segment) and the three WebP kinds", () => {
    expect(readImageHeader(png(64, 48))).toEqual({ format: "png", mediaType: "image/png", width: 64, height: 48 });
    expect(readImageHeader(gif(300, 2))).toEqual({ format: "gif", mediaType: "image/gif", width: 300, height: 2 });
    expect(readImageHeader(jpeg(1920, 1080, 60_000))).toEqual({ format: "jpeg", mediaType: "image/jpeg", width: 1920, height: 1080 });
    expect(readImageHeader(webp("VP8 ", 640, 480))).toMatchObject({ format: "webp", width: 640, height: 480 });
    expect(readImageHeader(webp("VP8L", 1000, 3))).toMatchObject({ format: "webp", width: 1000, height: 3 });
    expect(readImageHeader(webp("VP8X", 70_000, 5))).toMatchObject({ format: "webp", width: 70_000, height: 5 });
  });

  test("a header cut short still names the format, without a size; anything else is no image", () => {
    expect(readImageHeader(png(1, 1).slice(0, 10))).toEqual({ format: "png", mediaType: "image/png" });
    expect(readImageHeader(jpeg(10, 10).slice(0, 8))).toEqual({ format: "jpeg", mediaType: "image/jpeg" });
    expect(readImageHeader(new TextEncoder().encode("%PDF-1.7 not an image"))).toBeUndefined();
    expect(readImageHeader(new Uint8Array())).toBeUndefined();
    expect(readBase64ImageHeader(base64(png(20, 20)))).toMatchObject({ width: 20, height: 20 });
  });

  test("describeImage: `[image 64×64 png]`, or the type and size when the header has no dimensions", () => {
    expect(describeImage({ format: "png", mediaType: "image/png", width: 64, height: 64 }, 100)).toBe("[image 64×64 png]");
    expect(describeImage({ format: "png", mediaType: "image/png" }, 4000)).toBe("[image png, 3.9 KB]");
  });
});

describe("ImageBudget: what may go to the model", () => {
  test("an image is sent under the type its bytes have, whatever type the server claimed", () => {
    const verdict = new ImageBudget().take(base64(png(20, 20)), "image/jpeg");
    expect(verdict).toEqual({ image: { type: "image", mediaType: "image/png", data: base64(png(20, 20)) }, line: "[image 20×20 png]" });
  });

  test("not an image, not base64, too large, too many pixels, or past the count: described, not sent", () => {
    const budget = new ImageBudget({ ...DEFAULT_IMAGE_LIMITS, maxImages: 1 });
    expect(budget.take(base64(new TextEncoder().encode("%PDF-1.7")), "image/png")).toEqual({ line: "[image: image/png, 8 B: not shown, it is not a PNG, JPEG, GIF or WebP image]" });
    expect(budget.take("@@not base64@@", "image/png").line).toContain("not shown, its data is not valid base64");
    expect(budget.take(base64(png(9000, 10)), "image/png").line).toContain("not shown, 9000×10 px is over the 8000 px limit");
    const big = base64(png(10, 10, 4 * 1024 * 1024));
    expect(budget.take(big, "image/png").line).toMatch(/^\[image: image\/png, 4\.0 MB: not shown, it is over the 3\.8 MB limit \(5\.0 MB as base64\)\]$/);
    expect(budget.take(base64(png(1, 1)), "image/png").image).toBeDefined();
    expect(budget.take(base64(png(1, 1)), "image/png")).toEqual({ line: "[image: image/png, 33 B: not shown, more than 1 images]" });
  });
});
