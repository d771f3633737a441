import { describe, expect, it } from 'vitest';
import { itAnswersEachCase } from '../../../../test/support/case-tables.js';
import {
  compareVersionsDescending,
  fillBuckets,
  monthsBefore,
  periodDays,
  toCsv,
  versionLine,
  weekStart,
} from './analytics-rules.js';

describe('periods and buckets', () => {
  it('covers the last N UTC days, today included', () => {
    expect(periodDays(new Date('2026-03-15T23:30:00-02:00'), 30)).toEqual({ from: '2026-02-15', to: '2026-03-16' });
    expect(periodDays(new Date('2026-03-01T00:00:00Z'), 1)).toEqual({ from: '2026-03-01', to: '2026-03-01' });
  });

  it('starts weeks on Monday', () => {
    expect(weekStart('2026-03-15')).toBe('2026-03-09'); // a Sunday
    expect(weekStart('2026-03-16')).toBe('2026-03-16'); // a Monday
  });

  it('fills every day with zeros where nothing was downloaded', () => {
    const counts = new Map([
      ['2026-03-02', 4],
      ['2026-03-04', 1],
    ]);
    expect(fillBuckets(counts, { from: '2026-03-01', to: '2026-03-04' }, 'day')).toEqual([
      { start: '2026-03-01', downloads: 0 },
      { start: '2026-03-02', downloads: 4 },
      { start: '2026-03-03', downloads: 0 },
      { start: '2026-03-04', downloads: 1 },
    ]);
  });

  it('sums weeks from Monday, the first one starting with the period', () => {
    const counts = new Map([
      ['2026-03-01', 1], // Sunday: the period's first day, its own short week
      ['2026-03-02', 2], // Monday
      ['2026-03-08', 3], // Sunday
      ['2026-03-09', 5], // Monday
    ]);
    const points = fillBuckets(counts, { from: '2026-03-01', to: '2026-03-10' }, 'week');
    expect(points).toEqual([
      { start: '2026-03-01', downloads: 1 },
      { start: '2026-03-02', downloads: 5 },
      { start: '2026-03-09', downloads: 5 },
    ]);
    expect(points.reduce((sum, point) => sum + point.downloads, 0)).toBe(11);
  });
});

describe('versions', () => {
  itAnswersEachCase(versionLine, {
    'names the major line a holder is on': [
      ['1.4.2', '1.x'],
      ['v2.0.0-beta1', '2.x'],
      ['10', '10.x'],
      ['dev-main', 'dev-main'],
      ['1.x-dev', '1.x-dev'],
      ['release-1', 'release-1'],
    ],
  });

  it('orders versions newest first by number', () => {
    expect(['1.9.0', '1.10.0', 'v2.0.0', '1.2'].sort(compareVersionsDescending)).toEqual([
      'v2.0.0',
      '1.10.0',
      '1.9.0',
      '1.2',
    ]);
  });

  it('counts months back to the same day, or the month’s last day', () => {
    expect(monthsBefore(new Date('2026-03-31T10:00:00Z'), 1)).toEqual(new Date('2026-02-28T10:00:00Z'));
    expect(monthsBefore(new Date('2026-03-15T00:00:00Z'), 6)).toEqual(new Date('2025-09-15T00:00:00Z'));
  });
});

describe('toCsv', () => {
  it('quotes commas, quotes and line breaks, and ends lines with CRLF', () => {
    const csv = toCsv(
      ['email', 'note', 'downloads'],
      [
        ['a@example.com', 'plain', 3],
        ['b@example.com', 'with, comma', 0],
        ['c@example.com', 'say "hi"', 1],
        ['d@example.com', 'two\nlines', null],
      ],
    );
    expect(csv).toBe(
      '\uFEFFemail,note,downloads\r\n' +
        'a@example.com,plain,3\r\n' +
        'b@example.com,"with, comma",0\r\n' +
        'c@example.com,"say ""hi""",1\r\n' +
        'd@example.com,"two\nlines",\r\n',
    );
  });

  it('keeps a spreadsheet from running a cell as a formula', () => {
    expect(toCsv(['email'], [['=HYPERLINK("http://evil")'], ['+1'], ['-2'], ['@SUM(A1)']])).toBe(
      '\uFEFFemail\r\n"\'=HYPERLINK(""http://evil"")"\r\n\'+1\r\n\'-2\r\n\'@SUM(A1)\r\n',
    );
  });
});
