import { UTCDate } from '@date-fns/utc';
import { addDays as addDaysInZone, addMonths as addMonthsInZone, startOfISOWeek, startOfMonth } from 'date-fns';

// Calendar arithmetic on UTC dates, shared by the domains that count in months or days (sales, billing, analytics).
// date-fns counts in the time zone of the date it is given; a UTCDate makes that UTC whatever the server's TZ, so a
// license bought on Jan 31 at 23:30 UTC ends on Feb 28 at 23:30 UTC on every machine.

/** The date `months` calendar months after `from` (UTC), clamped to the last day of a shorter month. */
export function addMonths(from: Date, months: number): Date {
  return new Date(addMonthsInZone(new UTCDate(from.getTime()), months).getTime());
}

/** The first instant of the UTC calendar month `time` falls in. */
export function utcMonthStart(time: Date): Date {
  return new Date(startOfMonth(new UTCDate(time.getTime())).getTime());
}

/** `YYYY-MM-DD` of the UTC day `time` falls in. */
export function utcDay(time: Date): string {
  return time.toISOString().slice(0, 10);
}

const dayStart = (day: string) => new UTCDate(Date.parse(`${day}T00:00:00Z`));

/** The UTC day `days` days after `day` (`YYYY-MM-DD`; negative for before). */
export function addUtcDays(day: string, days: number): string {
  return utcDay(addDaysInZone(dayStart(day), days));
}

/** The Monday (UTC) of the ISO week `day` (`YYYY-MM-DD`) falls in. */
export function utcWeekStart(day: string): string {
  return utcDay(startOfISOWeek(dayStart(day)));
}
