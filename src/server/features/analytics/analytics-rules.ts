import { addMonths, addUtcDays, utcDay, utcWeekStart } from '../../lib/calendar.js';

// Pure rules of the seller's analytics: periods as UTC days, buckets, version lines and CSV.

export { utcDay };

/** The last `days` UTC days ending with today, as inclusive `YYYY-MM-DD` bounds. */
export function periodDays(now: Date, days: number): { from: string; to: string } {
  const to = utcDay(now);
  return { from: addUtcDays(to, -(days - 1)), to };
}

/** The Monday (UTC) of the ISO week `day` falls in. */
export const weekStart = utcWeekStart;

/**
 * Every bucket from `from` to `to` with its downloads, zeros included: one per day, or one per week whose start is
 * its Monday (the first week starts at `from` when the period begins mid-week).
 */
export function fillBuckets(
  counts: ReadonlyMap<string, number>,
  period: { from: string; to: string },
  bucket: 'day' | 'week',
): { start: string; downloads: number }[] {
  const points: { start: string; downloads: number }[] = [];
  for (let day = period.from; day <= period.to; day = addUtcDays(day, 1)) {
    const downloads = counts.get(day) ?? 0;
    const start = bucket === 'day' || day === period.from ? day : weekStart(day);
    const last = points[points.length - 1];
    if (bucket === 'week' && last && (start === last.start || weekStart(day) === weekStart(last.start))) {
      last.downloads += downloads;
    } else {
      points.push({ start, downloads });
    }
  }
  return points;
}

/** The major line of a Composer version (`v1.4.2` → `1.x`, `2.0.0-beta1` → `2.x`); a branch stays itself. */
export function versionLine(version: string): string {
  if (version.startsWith('dev-') || version.endsWith('-dev')) return version;
  const bare = version.startsWith('v') || version.startsWith('V') ? version.slice(1) : version;
  const end = bare.indexOf('.');
  const major = end === -1 ? bare : bare.slice(0, end);
  return major !== '' && [...major].every((char) => char >= '0' && char <= '9') ? `${Number(major)}.x` : version;
}

/** Orders versions newest first the way people read them: 10.0 after 9.1, numbers by value. */
export function compareVersionsDescending(a: string, b: string): number {
  const bare = (version: string) => (version.startsWith('v') ? version.slice(1) : version);
  return bare(b).localeCompare(bare(a), 'en', { numeric: true });
}

/** The same day and time `months` UTC calendar months before `now` (31 March minus one month is 28/29 February). */
export function monthsBefore(now: Date, months: number): Date {
  return addMonths(now, -months);
}

export type CsvCell = string | number | null | undefined;

/**
 * RFC 4180 CSV (CRLF, fields quoted when they hold a quote, comma or line break, quotes doubled), with a UTF-8 byte
 * order mark so that spreadsheets read accents right. A text cell that a spreadsheet would run as a formula
 * (starting with = + - @, tab or carriage return) is prefixed with an apostrophe (OWASP's CSV injection advice):
 * holder e-mails and versions are chosen by other people.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvField).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = '=+-@\t\r'.includes(value.charAt(0)) && value !== '' ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
