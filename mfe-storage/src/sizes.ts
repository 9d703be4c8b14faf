/** Size units of the spec: each step is 1024. */
export const SIZE_UNITS = ['bytes', 'KB', 'MB', 'GB'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];

export function toBytes(value: number, unit: SizeUnit): number {
  return value * 1024 ** SIZE_UNITS.indexOf(unit);
}

/** A byte count in the largest unit it reaches, e.g. 2097152 → "2 MB", 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  let index = 0;
  while (index < SIZE_UNITS.length - 1 && bytes >= 1024 ** (index + 1)) index += 1;
  const value = bytes / 1024 ** index;
  return `${Number.isInteger(value) ? value : Number(value.toFixed(2))} ${SIZE_UNITS[index]}`;
}
