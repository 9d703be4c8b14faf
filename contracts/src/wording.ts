/** A count with its noun, e.g. `1 row`, `1,024 rows`, `2 policies` (`many` when `s` is not the plural). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
