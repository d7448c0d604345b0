import type { ImageMediaType } from "./prompt-blocks.ts";

export type ImageFormat = "png" | "jpeg" | "gif" | "webp";

/** What the first bytes of an image say: its real format, and its size in pixels when the header has it. */
export interface ImageHeader {
  format: ImageFormat;
  mediaType: ImageMediaType;
  width?: number;
  height?: number;
}

/** How much of the base64 text is decoded to find a header: a JPEG's size may follow a long EXIF block. */
const HEADER_BASE64_CHARS = 256 * 1024;

/**
 * The format and dimensions of an image from its header bytes, or undefined when the bytes are none
 * of PNG, JPEG, GIF or WebP. The declared MIME type is not trusted: the API refuses an image whose
 * bytes do not match its media type, and a refused image would break every later request.
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const has = (offset: number, text: string) => [...text].every((char, i) => bytes[offset + i] === char.charCodeAt(0));
  if (bytes.length >= 8 && bytes[0] === 0x89 && has(1, "PNG\r\n\u001a\n")) {
    return bytes.length >= 24 && has(12, "IHDR")
      ? { ...PNG, width: view.getUint32(16), height: view.getUint32(20) }
      : PNG;
  }
  if (bytes.length >= 6 && (has(0, "GIF87a") || has(0, "GIF89a"))) {
    return bytes.length >= 10 ? { ...GIF, width: view.getUint16(6, true), height: view.getUint16(8, true) } : GIF;
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { ...JPEG, ...jpegSize(bytes, view) };
  if (bytes.length >= 12 && has(0, "RIFF") && has(8, "WEBP")) return { ...WEBP, ...webpSize(bytes, view, has) };
  return undefined;
}

/** The header of base64 image data (only its start is decoded). */
export function readBase64ImageHeader(data: string): ImageHeader | undefined {
  const start = data.slice(0, HEADER_BASE64_CHARS - (HEADER_BASE64_CHARS % 4));
  return readImageHeader(Buffer.from(start, "base64"));
}

const PNG = { format: "png", mediaType: "image/png" } as const;
const GIF = { format: "gif", mediaType: "image/gif" } as const;
const JPEG = { format: "jpeg", mediaType: "image/jpeg" } as const;
const WEBP = { format: "webp", mediaType: "image/webp" } as const;

type Size = { width: number; height: number } | Record<string, never>;

/** Walks the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegSize(bytes: Uint8Array, view: DataView): Size {
  let offset = 2;
  while (offset + 9 <= bytes.length) {
    if (bytes[offset] !== 0xff) return {};
    const marker = bytes[offset + 1] as number;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    }
    // Markers without a length: TEM and RSTn.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    offset += 2 + view.getUint16(offset + 2);
  }
  return {};
}

function webpSize(bytes: Uint8Array, view: DataView, has: (offset: number, text: string) => boolean): Size {
  if (has(12, "VP8 ") && bytes.length >= 30) {
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (has(12, "VP8L") && bytes.length >= 25) {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (has(12, "VP8X") && bytes.length >= 30) {
    const u24 = (at: number) => (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16);
    return { width: u24(24) + 1, height: u24(27) + 1 };
  }
  return {};
}
