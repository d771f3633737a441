import { describe, expect, it } from 'vitest';
import { addMonths } from './calendar.js';

describe('addMonths', () => {
  it('keeps the day of the month, clamped to a shorter month', () => {
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(new Date('2026-03-15T00:00:00Z'), 12).toISOString()).toBe('2027-03-15T00:00:00.000Z');
  });
});
