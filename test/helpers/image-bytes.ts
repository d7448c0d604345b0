/** Headers of images of a given size, as the formats lay them out: enough for a reader of headers. */

export function png(width: number, height: number, extra = 0): Uint8Array {
  const bytes = new Uint8Array(33 + extra);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

/** A JPEG with an APP1 (EXIF-like) segment of `appBytes` before its start-of-frame. */
export function jpeg(width: number, height: number, appBytes = 16): Uint8Array {
  const app = new Uint8Array(4 + appBytes);
  app.set([0xff, 0xe1]);
  new DataView(app.buffer).setUint16(2, appBytes + 2);
  const sof = new Uint8Array(19);
  sof.set([0xff, 0xc0, 0, 17, 8]);
  new DataView(sof.buffer).setUint16(5, height);
  new DataView(sof.buffer).setUint16(7, width);
  return concat(new Uint8Array([0xff, 0xd8]), app, sof, new Uint8Array([0xff, 0xd9]));
}

export function gif(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(13);
  bytes.set(new TextEncoder().encode("GIF89a"));
  new DataView(bytes.buffer).setUint16(6, width, true);
  new DataView(bytes.buffer).setUint16(8, height, true);
  return bytes;
}

export function webp(kind: "VP8 " | "VP8L" | "VP8X", width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(40);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(`RIFF\0\0\0\0WEBP${kind}`));
  if (kind === "VP8 ") {
    view.setUint16(26, width, true);
    view.setUint16(28, height, true);
  } else if (kind === "VP8L") {
    bytes[20] = 0x2f;
    view.setUint32(21, (width - 1) | ((height - 1) << 14), true);
  } else {
    const u24 = (at: number, value: number) => bytes.set([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff], at);
    u24(24, width - 1);
    u24(27, height - 1);
  }
  return bytes;
}

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
