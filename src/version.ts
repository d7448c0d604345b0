import pkg from "../package.json" with { type: "json" };

/** The version from package.json, built into the binary. */
export const VERSION: string = pkg.version;

/** The git commit the binary was built from; `scripts/build.ts` defines it, a source run has none. */
export const COMMIT: string = typeof CAT_CODE_COMMIT === "string" ? CAT_CODE_COMMIT : "";

declare const CAT_CODE_COMMIT: string | undefined;
