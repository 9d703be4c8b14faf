/** Size units of the spec: each step is 1024. */
export const SIZE_UNITS = ['bytes', 'KB', 'MB', 'GB'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];

/** How many bytes one of `unit` is. */
export const unitBytes = (unit: SizeUnit) => 1024 ** SIZE_UNITS.indexOf(unit);

export function toBytes(value: number, unit: SizeUnit): number {
  return value * unitBytes(unit);
}

/**
 * A byte count as a whole number of the largest unit that divides it, for forms that take digits only:
 * 52428800 → 50 MB, 1536 (1.5 KB) → 1536 bytes.
 */
export function wholeUnits(bytes: number): { value: number; unit: SizeUnit } {
  for (let index = SIZE_UNITS.length - 1; index > 0; index -= 1) {
    const unit = SIZE_UNITS[index]!;
    if (bytes > 0 && bytes % unitBytes(unit) === 0) return { value: bytes / unitBytes(unit), unit };
  }
  return { value: bytes, unit: 'bytes' };
}

/** A byte count in the largest unit it reaches, e.g. 2097152 → "2 MB", 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  let index = 0;
  while (index < SIZE_UNITS.length - 1 && bytes >= 1024 ** (index + 1)) index += 1;
  const value = bytes / 1024 ** index;
  return `${Number.isInteger(value) ? value : Number(value.toFixed(2))} ${SIZE_UNITS[index]}`;
}
