/**
 * One large-result measurement in a process of its own, so its peak memory is its own:
 *   bun large-result-child.ts <cat-code|sdk> <stdio|URL> <bytes>
 * Connects, makes a small warm-up call, collects garbage, notes the peak RSS so far (VmHWM), times
 * one `big` call of <bytes>, checks the text's length, notes VmHWM again, and prints one JSON line.
 */
import { readFileSync } from "node:fs";
import { connectHttp } from "./http-clients.ts";
import { connectCatCode, connectSdk } from "./stdio-clients.ts";

const [kind, where, bytesText] = process.argv.slice(2);
const bytes = Number(bytesText);

function vmKiB(field: "VmHWM" | "VmRSS"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/self/status", "utf8"));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

type Big = (bytes: number) => Promise<unknown>;
let big: Big;
let close: () => Promise<void>;
if (where === "stdio") {
  if (kind === "cat-code") {
    const c = await connectCatCode();
    big = (n) => c.client.callTool("big", { bytes: n });
    close = c.close;
  } else {
    const c = await connectSdk();
    big = (n) => c.client.callTool({ name: "big", arguments: { bytes: n } }, undefined, { timeout: 300_000 });
    close = c.close;
  }
} else {
  const c = await connectHttp(kind as "cat-code" | "sdk", where!);
  big = (n) => c.call("big", { bytes: n });
  close = c.close;
}

const textLength = (result: unknown) => ((result as { content: { text: string }[] }).content[0]?.text.length ?? 0);
if (textLength(await big(1024)) !== 1024) throw new Error("the warm-up answer has the wrong length");
Bun.gc(true);
const baseline = vmKiB("VmHWM");
const started = performance.now();
const result = await big(bytes);
const ms = performance.now() - started;
const peak = vmKiB("VmHWM");
if (textLength(result) !== bytes) throw new Error(`expected ${bytes} bytes of text, got ${textLength(result)}`);
console.log(JSON.stringify({ ms, baseline, peak, extra: peak - baseline }));
await close();
process.exit(0);
