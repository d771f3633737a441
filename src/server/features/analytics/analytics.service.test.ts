import { describe, expect, it } from 'vitest';
import { utcMonthBounds } from './analytics.service.js';

describe('utcMonthBounds', () => {
  it('spans the UTC calendar month, whatever the hour', () => {
    expect(utcMonthBounds(new Date('2026-03-31T23:30:00-02:00'))).toEqual({
      start: new Date('2026-04-01T00:00:00Z'),
      end: new Date('2026-05-01T00:00:00Z'),
    });
    expect(utcMonthBounds(new Date('2026-12-05T00:00:00Z'))).toEqual({
      start: new Date('2026-12-01T00:00:00Z'),
      end: new Date('2027-01-01T00:00:00Z'),
    });
  });
});
