import { describe, expect, it } from 'vitest';
import { centsToPrice, priceToCents } from './price-text';

describe('priceToCents', () => {
  it('reads dollars and cents exactly, with a comma or a point', () => {
    expect(priceToCents('19.99')).toBe(1999);
    expect(priceToCents('0.29')).toBe(29);
    expect(priceToCents('49')).toBe(4900);
    expect(priceToCents('49.5')).toBe(4950);
    expect(priceToCents(' 12,30 ')).toBe(1230);
  });

  it('refuses what is not a plain amount', () => {
    for (const text of ['', '-5', '1.999', 'abc', '1e3', '1.2.3']) expect(priceToCents(text)).toBeUndefined();
  });
});

describe('centsToPrice', () => {
  it('shows two decimals', () => {
    expect(centsToPrice(4900)).toBe('49.00');
    expect(centsToPrice(1999)).toBe('19.99');
  });
});
