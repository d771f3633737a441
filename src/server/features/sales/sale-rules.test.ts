import { describe, expect, it } from 'vitest';
import { platformFeeCents, subscriptionAccessEnd } from './sale-rules.js';

describe('platformFeeCents', () => {
  it('takes exactly 5% of amounts that divide evenly', () => {
    expect(platformFeeCents(2000)).toBe(100);
    expect(platformFeeCents(1900)).toBe(95);
    expect(platformFeeCents(0)).toBe(0);
  });

  it('rounds half a cent up and less than half down', () => {
    expect(platformFeeCents(1999)).toBe(100); // 99.95
    expect(platformFeeCents(50)).toBe(3); // 2.5
    expect(platformFeeCents(49)).toBe(2); // 2.45
    expect(platformFeeCents(1)).toBe(0); // 0.05
    expect(platformFeeCents(10)).toBe(1); // 0.5
    expect(platformFeeCents(9)).toBe(0); // 0.45
    expect(platformFeeCents(4999)).toBe(250); // 249.95
    expect(platformFeeCents(99_999_999)).toBe(5_000_000); // 4 999 999.95
  });

  it('refuses what is not an amount in cents', () => {
    expect(() => platformFeeCents(-1)).toThrow(RangeError);
    expect(() => platformFeeCents(10.5)).toThrow(RangeError);
  });
});

describe('subscriptionAccessEnd', () => {
  const start = new Date('2026-05-01T00:00:00Z');
  const end = new Date('2026-06-01T00:00:00Z');
  it('gives the paid period to an active subscription and only the paid time to an unpaid one', () => {
    expect(
      subscriptionAccessEnd({ status: 'active', currentPeriodStart: start, currentPeriodEnd: end, endedAt: null }),
    ).toEqual(end);
    expect(
      subscriptionAccessEnd({ status: 'past_due', currentPeriodStart: start, currentPeriodEnd: end, endedAt: null }),
    ).toEqual(start);
    const ended = new Date('2026-05-20T00:00:00Z');
    expect(
      subscriptionAccessEnd({ status: 'canceled', currentPeriodStart: start, currentPeriodEnd: end, endedAt: ended }),
    ).toEqual(ended);
  });
});
