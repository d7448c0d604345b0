import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..", "..");
export const BUN = process.execPath;
export const BENCH_FIXTURES = join(ROOT, "fixtures", "bench");
/** The minimal Bun echo server every stdio benchmark talks to. */
export const ECHO_SERVER = join(BENCH_FIXTURES, "echo-server.ts");
/** The SDK Streamable HTTP server of the tests, with its benchmark tool (`--big`). */
export const SDK_HTTP_SERVER = join(ROOT, "fixtures", "http", "sdk-http-server.ts");
