/**
 * A stand-in for a web browser, for tests of the sign-in flow and the conformance client (run through
 * browser-opener.ts): `fetch-browser.ts <url>` GETs the URL and goes on the way a person in a browser
 * would, so the authorization server's redirect reaches cat-code's loopback listener with the code:
 * it follows redirects, keeps cookies (by host and path, as a browser does), and on a page with a
 * POST form (a login or consent page such as oidc-provider's) fills in the visible text and password
 * fields (FETCH_BROWSER_LOGIN and FETCH_BROWSER_PASSWORD, default "user" and "password"), keeps the
 * hidden ones, and submits it, as a person pressing the button. It goes only to 127.0.0.1 and
 * localhost (a test has no network, and nothing should leave the machine). With FETCH_BROWSER_LOG
 * set, it appends each request (method, URL, status) as a JSON line. Exit 0 when the last page
 * answered 2xx with no form to submit, else 1 with one line on stderr.
 */
import { appendFileSync } from "node:fs";

const MAX_HOPS = 20;
const log = process.env.FETCH_BROWSER_LOG;
const start = process.argv.at(-1);
const person: Record<string, string> = { text: process.env.FETCH_BROWSER_LOGIN ?? "user", password: process.env.FETCH_BROWSER_PASSWORD ?? "password" };

function fail(message: string): never {
  console.error(`fetch-browser: ${message}`);
  process.exit(1);
}

interface Cookie {
  host: string;
  path: string;
  name: string;
  value: string;
}
const jar: Cookie[] = [];

/** Keeps the response's cookies; one with Max-Age <= 0 or an expiry in the past is removed. */
function keepCookies(url: URL, headers: Headers): void {
  for (const line of headers.getSetCookie()) {
    const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
    const split = pair.indexOf("=");
    if (split <= 0) continue;
    const cookie = { host: url.host, path: "/", name: pair.slice(0, split), value: pair.slice(split + 1) };
    let gone = false;
    for (const attribute of attributes) {
      const [key = "", value = ""] = attribute.split("=", 2);
      if (/^path$/i.test(key) && value.startsWith("/")) cookie.path = value;
      if (/^max-age$/i.test(key) && Number(value) <= 0) gone = true;
      if (/^expires$/i.test(key) && Date.parse(value) <= Date.now()) gone = true;
    }
    const same = jar.findIndex((kept) => kept.host === cookie.host && kept.path === cookie.path && kept.name === cookie.name);
    if (same !== -1) jar.splice(same, 1);
    if (!gone) jar.push(cookie);
  }
}

function cookieHeader(url: URL): string {
  const matches = (path: string) => url.pathname === path || url.pathname.startsWith(path.endsWith("/") ? path : `${path}/`);
  return jar
    .filter((cookie) => cookie.host === url.host && matches(cookie.path))
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join("; ");
}

/** The page's first POST form as a person would submit it, or undefined when it has none. */
function postForm(html: string, page: URL): { action: URL; body: URLSearchParams } | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form || !/method=["']?post/i.test(form[1]!)) return undefined;
  const attribute = (tag: string, name: string) => new RegExp(`\\b${name}=["']([^"']*)["']`, "i").exec(tag)?.[1];
  const body = new URLSearchParams();
  for (const [input] of form[2]!.matchAll(/<input\b[^>]*>/gi)) {
    const name = attribute(input, "name");
    if (!name) continue;
    const type = (attribute(input, "type") ?? "text").toLowerCase();
    body.set(name, type === "hidden" ? (attribute(input, "value") ?? "") : (person[type] ?? attribute(input, "value") ?? ""));
  }
  return { action: new URL(decodeEntities(attribute(form[1]!, "action") ?? page.href), page), body };
}

function decodeEntities(text: string): string {
  return text.replaceAll("&amp;", "&").replaceAll("&#x2F;", "/").replaceAll("&#47;", "/").replaceAll("&quot;", '"');
}

if (!start || process.argv.length < 3) fail("usage: fetch-browser.ts <url>");
let url: URL;
try {
  url = new URL(start);
} catch {
  fail(`not a URL: ${start}`);
}
let submit: URLSearchParams | undefined;
for (let hop = 0; ; hop++) {
  if (hop > MAX_HOPS) fail(`more than ${MAX_HOPS} pages and redirects`);
  if (url.protocol !== "http:" || !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) fail(`refusing to visit ${url.origin}: only loopback`);
  const headers: Record<string, string> = { cookie: cookieHeader(url) };
  const init: RequestInit = submit
    ? { method: "POST", redirect: "manual", headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, body: submit.toString() }
    : { redirect: "manual", headers };
  const response = await fetch(url, init).catch((error: Error) => fail(`cannot reach ${url.origin}: ${error.message}`));
  const text = await response.text().catch(() => "");
  if (log) appendFileSync(log, `${JSON.stringify({ method: submit ? "POST" : "GET", url: url.href, status: response.status })}\n`);
  keepCookies(url, response.headers);
  submit = undefined;
  const location = response.headers.get("location");
  if (response.status >= 300 && response.status < 400 && location) {
    url = new URL(location, url);
    continue;
  }
  if (response.status < 200 || response.status >= 300) fail(`${url.origin}${url.pathname} answered ${response.status}`);
  const form = /html/i.test(response.headers.get("content-type") ?? "") ? postForm(text, url) : undefined;
  if (!form) process.exit(0);
  url = form.action;
  submit = form.body;
}
