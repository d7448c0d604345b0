// Moved to src/config/locked-file.ts (the JSONC machinery both configs use); kept for the imports of branches
// merged alongside this one. Delete once nothing imports it from here.
export * from "../../config/locked-file.ts";
