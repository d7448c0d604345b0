/**
 * find's expression, read as find reads it: each `-word` a primary from these lists, the ones with
 * a value taking the next word whole (`-mtime -7`, `-printf '-%p'`). Anything else asks: an action
 * that writes, deletes or runs a command, following symlinks (they may lead out of the project), a
 * list of start points read from a file, and a primary cat-code does not know.
 */
const FLAGS = new Set([
  "-print", "-print0", "-ls", "-prune", "-quit", "-empty", "-readable", "-writable", "-executable", "-depth", "-d", "-daystart",
  "-xdev", "-mount", "-noleaf", "-nouser", "-nogroup", "-true", "-false", "-not", "-a", "-o", "-and", "-or",
  "-ignore_readdir_race", "-noignore_readdir_race", "-H", "-P", "-help", "--help", "-version", "--version",
]);
const VALUED = new Set([
  "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname", "-type", "-xtype",
  "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-used", "-newer", "-anewer", "-cnewer", "-perm", "-user",
  "-group", "-uid", "-gid", "-links", "-inum", "-samefile", "-maxdepth", "-mindepth", "-printf", "-regextype", "-fstype", "-context",
]);
/** `-newermt 2024-01-01` and the other -newerXY forms. */
const NEWER_XY = /^-newer[aBcmt][aBcmt]$/;
/** Actions that write, delete or run a command; refused wherever they stand, even as another primary's value. */
const ACTIONS = /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/;
const REFUSED: Readonly<Record<string, string>> = {
  "-L": "follows symlinks, so it may read outside the project",
  "-follow": "follows symlinks, so it may read outside the project",
  "-files0-from": "reads the start points from a file",
};

export function findCheck(args: readonly string[]): string | undefined {
  const action = args.find((arg) => ACTIONS.test(arg));
  if (action) return `find ${action} writes or runs a command`;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith("-") || arg === "-") continue;
    if (REFUSED[arg] !== undefined) return `find ${arg} ${REFUSED[arg]}`;
    if (VALUED.has(arg) || NEWER_XY.test(arg)) i++;
    else if (!FLAGS.has(arg) && !/^-O\d$/.test(arg)) return `find ${arg} is not a primary cat-code knows to be read-only`;
  }
  return undefined;
}
