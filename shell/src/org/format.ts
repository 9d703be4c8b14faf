/** Cents as US dollars, e.g. 2950 → "$29.50"; prices below a cent keep their third digit (12.5 → "$0.125"). */
export const formatCents = (cents: number): string =>
  (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 3 });

/** A month `YYYY-MM` as "November 2026". */
export const formatMonth = (month: string): string =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
