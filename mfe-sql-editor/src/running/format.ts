const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A running query's start as the spec writes it, "DD MMM YYYY HH:mm (ZZ)": `25 Nov 2026 07:30 (+00:00)`.
 * In the browser's timezone unless `offsetMinutes` (east of UTC) says otherwise; an unreadable
 * timestamp is shown as it came.
 */
export function formatQueryStart(timestamp: string, offsetMinutes?: number): string {
  const at = new Date(timestamp);
  if (Number.isNaN(at.getTime())) return timestamp;
  const offset = offsetMinutes ?? -at.getTimezoneOffset();
  const wall = new Date(at.getTime() + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return (
    `${pad(wall.getUTCDate())} ${MONTHS[wall.getUTCMonth()]} ${wall.getUTCFullYear()} ` +
    `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())} (${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)})`
  );
}
