import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { sameOriginUrl } from './billing.service.js';
import { addOneMonth, runningPeriodEnd } from './billing-periods.js';

describe('billing periods', () => {
  it('adds calendar months, keeping the day where the month has it', () => {
    expect(addOneMonth(new Date('2026-03-01T12:00:00Z'))).toEqual(new Date('2026-04-01T12:00:00Z'));
    expect(addOneMonth(new Date('2026-01-31T08:00:00Z'))).toEqual(new Date('2026-02-28T08:00:00Z'));
    expect(addOneMonth(new Date('2028-01-31T08:00:00Z'))).toEqual(new Date('2028-02-29T08:00:00Z'));
    expect(addOneMonth(new Date('2026-12-15T00:00:00Z'))).toEqual(new Date('2027-01-15T00:00:00Z'));
  });

  it('rolls a renewing period forward to the one running now', () => {
    const end = new Date('2026-04-01T12:00:00Z');
    expect(runningPeriodEnd(end, new Date('2026-03-20T00:00:00Z'))).toEqual(end);
    expect(runningPeriodEnd(end, end)).toEqual(new Date('2026-05-01T12:00:00Z'));
    expect(runningPeriodEnd(end, new Date('2026-07-02T00:00:00Z'))).toEqual(new Date('2026-08-01T12:00:00Z'));
  });
});

describe('sameOriginUrl', () => {
  const ctx = { config: { publicUrl: 'https://packgate.example' } } as AppContext;

  it('resolves paths against PUBLIC_URL and keeps absolute URLs of the same origin', () => {
    expect(sameOriginUrl(ctx, undefined, '/billing')).toBe('https://packgate.example/billing');
    expect(sameOriginUrl(ctx, '/billing?success=true', '/x')).toBe('https://packgate.example/billing?success=true');
    expect(sameOriginUrl(ctx, 'https://packgate.example/subscribe?cancelled=true', '/x')).toBe(
      'https://packgate.example/subscribe?cancelled=true',
    );
  });

  it('refuses every other origin', () => {
    for (const url of [
      'https://evil.example/billing',
      '//evil.example/billing',
      'http://packgate.example/billing',
      'https://packgate.example.evil.example/',
      'https://packgate.example@evil.example/',
      'javascript:alert(1)',
      'data:text/html,hi',
    ]) {
      expect(() => sameOriginUrl(ctx, url, '/billing'), url).toThrow();
    }
  });
});
