/** Sizes in the product's units (bytes, KB, MB, GB, TB; each step 1024), e.g. 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let index = 0;
  while (index < units.length - 1 && bytes >= 1024 ** (index + 1)) index += 1;
  const value = bytes / 1024 ** index;
  return `${Number.isInteger(value) ? value : Number(value.toFixed(2))} ${units[index]}`;
}

/** Cents as US dollars, e.g. 2950 → "$29.50"; prices below a cent keep their third digit (12.5 → "$0.125"). */
export const formatCents = (cents: number): string =>
  (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 3 });

/** A month `YYYY-MM` as "November 2026". */
export const formatMonth = (month: string): string =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
