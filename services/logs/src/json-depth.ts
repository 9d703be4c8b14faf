/**
 * Whether `value` nests objects and arrays more than `max` levels deep (`{}` and `[]` are one level, a
 * scalar none). It walks with a stack of its own, so JSON nested far deeper than the call stack allows
 * (which JSON.parse accepts and JSON.stringify cannot write back) gets an answer, not a RangeError.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<{ item: unknown; depth: number }> = [{ item: value, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.item !== 'object' || next.item === null) continue;
    if (next.depth === max) return true;
    for (const child of Object.values(next.item)) pending.push({ item: child, depth: next.depth + 1 });
  }
  return false;
}
