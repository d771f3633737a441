import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format-date';

describe('formatDate', () => {
  it('writes a date in the one en-US format, whatever the browser language', () => {
    expect(formatDate('2026-03-05T12:00:00')).toBe('Mar 5, 2026');
  });

  it('adds the time in 12-hour form', () => {
    expect(formatDateTime('2026-03-05T15:07:00')).toBe('Mar 5, 2026, 3:07 PM');
  });
});
