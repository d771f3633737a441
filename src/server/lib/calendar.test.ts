import { afterEach, describe, expect, it } from 'vitest';
import { addMonths, addUtcDays, utcMonthStart, utcWeekStart } from './calendar.js';

const zoneAtStart = process.env.TZ;

describe('calendar arithmetic in UTC', () => {
  afterEach(() => {
    if (zoneAtStart === undefined) delete process.env.TZ;
    else process.env.TZ = zoneAtStart;
  });

  it('keeps the day of the month, clamped to a shorter month', () => {
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(new Date('2026-03-15T00:00:00Z'), 12).toISOString()).toBe('2027-03-15T00:00:00.000Z');
    expect(addMonths(new Date('2026-03-31T08:00:00Z'), -1).toISOString()).toBe('2026-02-28T08:00:00.000Z');
  });

  it('counts UTC months and days whatever time zone the server runs in', () => {
    // 02:00 UTC on 31 March is still 30 March in New York: counted there, a month later would be 1 May UTC.
    process.env.TZ = 'America/New_York';
    expect(addMonths(new Date('2026-03-31T02:00:00Z'), 1).toISOString()).toBe('2026-04-30T02:00:00.000Z');
    expect(utcMonthStart(new Date('2026-04-01T01:00:00Z')).toISOString()).toBe('2026-04-01T00:00:00.000Z');
    process.env.TZ = 'Pacific/Kiritimati';
    expect(utcMonthStart(new Date('2026-03-31T23:00:00Z')).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(utcWeekStart('2026-03-15')).toBe('2026-03-09');
    expect(addUtcDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('gives the Monday of the ISO week and steps over month and year ends', () => {
    expect(utcWeekStart('2026-03-16')).toBe('2026-03-16');
    expect(utcWeekStart('2027-01-01')).toBe('2026-12-28');
    expect(addUtcDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
