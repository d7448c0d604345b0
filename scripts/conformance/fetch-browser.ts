/**
 * A stand-in for a web browser, for tests of the sign-in flow and the conformance client (run through
 * browser-opener.ts): `fetch-browser.ts <url>` GETs the URL and follows its redirects the way a browser
 * would, so the authorization server's redirect reaches cat-code's loopback listener with the code. It
 * goes only to 127.0.0.1 and localhost (a test has no network, and nothing should leave the machine).
 * With FETCH_BROWSER_LOG set, it appends each URL it visits and the status it got, one JSON line each.
 * Exit 0 when the last page answered 2xx, else 1 with one line on stderr.
 */
import { appendFileSync } from "node:fs";

const MAX_HOPS = 10;
const log = process.env.FETCH_BROWSER_LOG;
const start = process.argv.at(-1);

function fail(message: string): never {
  console.error(`fetch-browser: ${message}`);
  process.exit(1);
}

if (!start || process.argv.length < 3) fail("usage: fetch-browser.ts <url>");
let url: URL;
try {
  url = new URL(start);
} catch {
  fail(`not a URL: ${start}`);
}
for (let hop = 0; ; hop++) {
  if (hop > MAX_HOPS) fail(`more than ${MAX_HOPS} redirects`);
  if (url.protocol !== "http:" || !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) fail(`refusing to visit ${url.origin}: only loopback`);
  const response = await fetch(url, { redirect: "manual" }).catch((error: Error) => fail(`cannot reach ${url.origin}: ${error.message}`));
  await response.arrayBuffer().catch(() => {});
  if (log) appendFileSync(log, `${JSON.stringify({ url: url.href, status: response.status })}\n`);
  const location = response.headers.get("location");
  if (response.status >= 300 && response.status < 400 && location) {
    url = new URL(location, url);
    continue;
  }
  if (response.status >= 200 && response.status < 300) process.exit(0);
  fail(`${url.origin}${url.pathname} answered ${response.status}`);
}
