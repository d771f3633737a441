import type { Plan, PlansResponse } from '@contract/plans';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_TRIAL_DAYS, UNLIMITED } from '../../../contract/plans';
import { getJson } from '../api-client';

export type { Plan, PlansResponse };

export const PLANS_PATH = '/api/pricing-tiers';

export const plansQuery = () => queryOptions({ queryKey: [PLANS_PATH], queryFn: getJson<PlansResponse> });

export const usePlans = () => useQuery(plansQuery());

/** The trial length to show: the server's, else 14 days (spec seller-app §9). */
export const trialDaysOf = (response: Pick<PlansResponse, 'trialDays'> | undefined): number =>
  typeof response?.trialDays === 'number' ? response.trialDays : DEFAULT_TRIAL_DAYS;

/** Tiers in the admin's order (sortOrder), ties by price. */
export function sortPlans(tiers: Record<string, Plan> | undefined): Plan[] {
  return Object.values(tiers ?? {}).sort((a, b) => a.sortOrder - b.sortOrder || a.priceCents - b.priceCents);
}

/** Cents as whole monthly dollars ("$19"), with cents only when there are some ("$19.50"). */
export function formatMonthlyPrice(priceCents: number, currency = 'usd'): string {
  const amount = priceCents / 100;
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount);
}

/** "Unlimited customers" for -1, "Up to 25 customers" otherwise (singular for 1). */
export function limitText(limit: number, singular: string, plural: string): string {
  if (limit === UNLIMITED) return `Unlimited ${plural}`;
  return `Up to ${limit} ${limit === 1 ? singular : plural}`;
}
