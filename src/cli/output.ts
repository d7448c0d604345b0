/**
 * Results go to stdout, and only results. Written with `Bun.write` and awaited, so a large result
 * is whole in the pipe before the process exits.
 */
export async function printResult(text: string): Promise<void> {
  await Bun.write(Bun.stdout, text.endsWith("\n") ? text : `${text}\n`);
}
