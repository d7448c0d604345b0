/**
 * The longest JSON-RPC message cat-code holds from a server, on every transport: a stdio line, an
 * HTTP JSON answer, one SSE event. Past it the message is refused, so memory stays bounded whatever
 * a server sends (an endless `data:` line once reached 8 GB). Counted in characters of decoded text,
 * which is what is held.
 */
export const MAX_MESSAGE_CHARS = 256 * 2 ** 20;

/** A limit as a person reads it: `256 MB`, or `1000 characters` for the small limits tests use. */
export function describeLimit(chars: number): string {
  return chars % 2 ** 20 === 0 ? `${chars / 2 ** 20} MB` : `${chars} characters`;
}
