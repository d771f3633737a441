import { describe, expect, it } from 'vitest';
import { itAnswersEachCase } from '../../../../test/support/case-tables.js';
import { salesMessages } from '../../../contract/sales';
import {
  accessText,
  buyerEmailProblem,
  newPriceForm,
  priceInputOf,
  priceText,
  pricingProblems,
  setupSteps,
  termsText,
} from './pricing-rules';

describe('pricingProblems', () => {
  it('accepts a new one-time tier as the dialog proposes it', () => {
    expect(pricingProblems([newPriceForm([])])).toEqual({});
  });

  it('names each problem of a tier in the server words', () => {
    const tier = { ...newPriceForm([]), name: ' ', price: '0.10', updateMonths: '0' };
    const problems = pricingProblems([tier])[tier.key];
    expect(problems?.name).toBe(salesMessages.nameRequired);
    expect(problems?.price).toBe('The price must be from $0.50 to $999,999.99');
    expect(problems?.updateMonths).toBe(salesMessages.updateMonthsInvalid);
  });

  it('checks trial days only for subscriptions and keeps one currency', () => {
    const first = newPriceForm([]);
    const second = { ...newPriceForm([first]), pricingType: 'subscription' as const, trialDays: '-1', currency: 'eur' };
    const problems = pricingProblems([first, second]);
    expect(problems[first.key]).toBeUndefined();
    expect(problems[second.key]).toEqual({
      trialDays: salesMessages.trialDaysInvalid,
      currency: salesMessages.currencyMismatch,
    });
  });
});

describe('priceInputOf', () => {
  it('sends months of updates for a one-time tier and no interval or trial', () => {
    const tier = { ...newPriceForm([]), price: '19.99', trialDays: '14' };
    expect(priceInputOf(tier)).toMatchObject({
      pricingType: 'one_time',
      priceCents: 1999,
      updateMonths: 12,
      interval: null,
      trialDays: null,
      isActive: true,
    });
  });

  it('sends the interval and trial days of a subscription, none for an empty trial', () => {
    const tier = { ...newPriceForm([]), pricingType: 'subscription' as const, interval: 'year' as const };
    expect(priceInputOf({ ...tier, trialDays: '14' })).toMatchObject({
      interval: 'year',
      trialDays: 14,
      updateMonths: null,
    });
    expect(priceInputOf({ ...tier, trialDays: '' }).trialDays).toBeNull();
  });
});

describe('texts of a tier', () => {
  /** A one-time tier at $49.00 that gives `updateMonths` months of updates. */
  const oneTimeTier = (updateMonths: number) => ({
    pricingType: 'one_time' as const,
    interval: null,
    updateMonths,
    trialDays: null,
    priceCents: 4900,
    currency: 'usd',
  });

  it('says what a one-time purchase and a subscription give', () => {
    const oneTime = oneTimeTier(1);
    expect(priceText(oneTime)).toBe('$49.00');
    expect(termsText(oneTime)).toBe('One-time payment · 1 month of updates');
    const yearly = {
      ...oneTime,
      pricingType: 'subscription' as const,
      interval: 'year' as const,
      trialDays: 14,
      priceCents: 9000,
      currency: 'eur',
    };
    expect(priceText(yearly)).toBe('€90.00 / year');
    expect(termsText(yearly)).toBe('Billed yearly · 14-day free trial');
  });

  it('says plainly what a tier sold for a version range gives: the versions in the range, within the period', () => {
    const oneTime = oneTimeTier(12);
    expect(accessText(oneTime)).toBe('Install every version released in the next 12 months, and keep them for good.');
    expect(accessText({ ...oneTime, versionConstraint: '^2.0' })).toBe(
      'Install every ^2.0 version released in the next 12 months, and keep them for good. Versions outside ^2.0 are not included.',
    );
    expect(accessText({ ...oneTime, pricingType: 'subscription', interval: 'month', versionConstraint: '^2.0' })).toBe(
      'Install every ^2.0 version while your subscription lasts; cancel at any time. Versions outside ^2.0 are not included.',
    );
  });
});

describe('buyerEmailProblem', () => {
  itAnswersEachCase(buyerEmailProblem, {
    'wants an address with a domain': [
      ['', salesMessages.emailRequired],
      ['buyer@example', salesMessages.emailInvalid],
      ['a b@example.com', salesMessages.emailInvalid],
      [' buyer@example.com ', undefined],
    ],
  });
});

describe('setupSteps', () => {
  it('groups the commands into the three steps, secure-http with the repository', () => {
    const steps = setupSteps([
      'composer config repositories.acme composer http://acme.composer.localhost:5000',
      'composer config secure-http false',
      'composer config bearer.acme.composer.localhost:5000 pgc_x',
      'composer require acme/widget',
    ]);
    expect(steps.map((step) => [step.title, step.commands.length])).toEqual([
      ['Add the repository', 2],
      ['Set your access token', 1],
      ['Require the package', 1],
    ]);
  });
});
