/** `{"a":{"a":…{}}}`, `levels` deep, built without recursion or JSON text: what a hostile server nests. */
export function nestedObject(levels: number): object {
  let value: object = {};
  for (let level = 1; level < levels; level++) value = { a: value };
  return value;
}
