/** Why a command's arguments make it not read-only, or undefined when they are fine. */
export type Check = (args: readonly string[]) => string | undefined;

/**
 * The options of one command that cannot write a file, run a program, read a list of other files
 * or leave the project: an ALLOW-list, so an option cat-code does not know (or a newer version of
 * the tool adds) is asked about, never let through.
 */
export interface OptionSpec {
  /** Short options without a value, one letter each (`"lah"`). */
  flags?: string;
  /** Short options that take a value: the rest of their cluster is it (`-n5`), or the next word. */
  valued?: string;
  /** Long options without `--`: `"name"` takes no value, `"name="` one (after `=` or as the next word), `"name[=]"` an optional one after `=`. */
  long?: readonly string[];
  /** A bare number is an option (`head -5`, `git log -3`). */
  numbers?: true;
  /** Options that write, run or read elsewhere (`-o`, `--output`), with why: named in the answer, and no abbreviation of a long one passes. */
  refused?: Readonly<Record<string, string>>;
}

/**
 * The check of `command`'s options against `spec`, read as GNU getopt_long (and git's
 * parse-options) read them: options anywhere before `--`, short ones clustered (`-uo out` holds
 * -o), and a long one by any unambiguous prefix (`--outp` is `--output`). So a long option passes
 * only when it is an allowed one or a prefix of allowed ones and of no refused one: a prefix that
 * also fits an option on neither list is ambiguous to the tool, which then refuses to run.
 * The value of an option in the next word is checked as a word of its own: stricter, never looser.
 */
export function optionCheck(command: string, spec: OptionSpec): Check {
  const long = (spec.long ?? []).map(parseLong);
  const refusedLong = Object.keys(spec.refused ?? {}).filter((name) => name.startsWith("--"));
  const why = (option: string, what: string) => `${command} ${option} ${what}`;
  const refusedWhy = (option: string, refused: string) => why(option, spec.refused?.[refused] ?? "");
  return (args) => {
    for (const arg of args) {
      if (arg === "--") break;
      if (!arg.startsWith("-") || arg === "-") continue;
      if (arg.startsWith("--")) {
        const [name = "", value] = splitLong(arg.slice(2));
        if (name === "") return why(arg, "is not an option");
        const exact = long.find((option) => option.name === name);
        if (exact) {
          if (value !== undefined && exact.value === "none") return why(`--${name}`, "takes no value");
          continue;
        }
        const refused = refusedLong.find((option) => option.slice(2).startsWith(name));
        if (refused) return refusedWhy(arg.split("=")[0] as string, refused) + (refused === arg.split("=")[0] ? "" : ` (it abbreviates ${refused})`);
        const fits = long.filter((option) => option.name.startsWith(name));
        if (fits.length > 0 && !(value !== undefined && fits.every((option) => option.value === "none"))) continue;
        return why(`--${name}`, "is not an option cat-code knows to be read-only");
      }
      if (spec.numbers && /^-\d+$/.test(arg)) continue;
      const bad = clusterProblem(arg, spec);
      if (bad) return spec.refused?.[`-${bad}`] !== undefined ? refusedWhy(`-${bad}`, `-${bad}`) : why(`-${bad}`, "is not an option cat-code knows to be read-only");
    }
    return undefined;
  };
}

/** The first letter of a short cluster (`-lah`) that is not allowed; a valued letter ends it (`-n5`). */
function clusterProblem(arg: string, spec: OptionSpec): string | undefined {
  for (const letter of arg.slice(1)) {
    if (spec.refused?.[`-${letter}`] !== undefined) return letter;
    if (spec.valued?.includes(letter)) return undefined;
    if (!spec.flags?.includes(letter)) return letter;
  }
  return undefined;
}

interface LongOption {
  name: string;
  value: "none" | "required" | "optional";
}

function parseLong(text: string): LongOption {
  if (text.endsWith("[=]")) return { name: text.slice(0, -3), value: "optional" };
  if (text.endsWith("=")) return { name: text.slice(0, -1), value: "required" };
  return { name: text, value: "none" };
}

function splitLong(text: string): [string, string | undefined] {
  const at = text.indexOf("=");
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
