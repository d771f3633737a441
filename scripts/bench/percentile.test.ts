import { describe, expect, it } from 'vitest';
import { median, percentileOf } from './percentile.js';

describe('percentileOf', () => {
  it('answers the nearest rank: p99 of 1 to 100 is 99, not the largest value', () => {
    const values = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentileOf(values, 0.99)).toBe(99);
    expect(percentileOf(values, 0.5)).toBe(50);
    expect(percentileOf(values, 1)).toBe(100);
  });

  it('answers the only value of one, and NaN of none', () => {
    expect(percentileOf([7], 0.99)).toBe(7);
    expect(percentileOf([], 0.5)).toBeNaN();
  });
});

describe('median', () => {
  it('answers the middle value of an odd count in any order, and the mean of the two middle ones of an even count', () => {
    expect(median([9, 1, 5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('answers NaN of none, and leaves the values it was given in their order', () => {
    expect(median([])).toBeNaN();
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});
