import { existsSync } from "node:fs";

/**
 * Whether a line starting with `/` is a slash command or a prompt that starts with a path
 * (`/usr/bin/ls fails`, `/tmp is full`). Its first word is a path when it holds another `/` or names
 * something that exists; a built-in command's name stays a command even so. `/` alone is a command
 * (it lists them).
 */
export function isSlashCommand(text: string, builtins: readonly string[], exists: (path: string) => boolean = existsSync): boolean {
  if (!text.startsWith("/")) return false;
  const word = text.split(/\s/, 1)[0] as string;
  if (word === "/") return true;
  if (word.slice(1).includes("/")) return false;
  if (builtins.includes(word.slice(1))) return true;
  return !exists(word);
}
