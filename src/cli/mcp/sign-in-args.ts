import type { ArgsDef } from "citty";

// Apart from sign-in-flags.ts: declaring the flags loads none of the sign-in code.

export const browserArg = {
  browser: { type: "boolean", default: true, description: "Open the sign-in page in the browser (--no-browser only prints its URL)" },
} as const satisfies ArgsDef;

/** `--login` and `--no-browser` on the commands that call servers (`mcp call`, `mcp tools`). */
export const signInArgs = {
  login: { type: "boolean", description: "Sign in to a server that asks for it, there and then (a browser opens; without it such a server is NEEDS-AUTH, exit 5)" },
  ...browserArg,
} as const satisfies ArgsDef;
