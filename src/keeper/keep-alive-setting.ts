/**
 * `CAT_CODE_KEEP_ALIVE`: whole seconds a warm connection stays without use (`0`: none kept);
 * undefined when unset or not a whole number. In a module of its own, free of imports: the command
 * reads it on its warm path, and the keeper for each connection.
 */
export function keepAliveSetting(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  return Number(text.trim());
}
