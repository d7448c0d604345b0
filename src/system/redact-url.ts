/**
 * A URL as it may be shown to a person or written to a log: userinfo and query values masked, so
 * a secret expanded from `${VAR}` into `https://alice:${PW}@host/mcp?api_key=${TOKEN}` is never
 * printed. A fragment is masked whole (OAuth's implicit flow puts tokens there). Query names stay (they tell the user which parameter is meant). Text that is not a URL
 * is returned masked whole, since it cannot be told apart.
 */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "***";
  }
  if (url.username) url.username = "***";
  if (url.password) url.password = "***";
  if (url.search) {
    const names = [...url.searchParams.keys()];
    url.search = names.map((name) => `${encodeURIComponent(name)}=***`).join("&");
  }
  if (url.hash) url.hash = "***";
  // URLSearchParams would percent-encode the mask; the literal `***` reads better.
  return url.href.replaceAll("%2A%2A%2A", "***");
}
