import type { BillingOverview, RedirectUrlResponse } from '@contract/billing';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, getJson } from '../api-client';

// The billing overview and the payment provider's customer portal, shared by /billing and the Dashboard's
// Manage Billing and Subscription button.

/** What /billing shows: plan, status, period end, whether billing is on. */
export const billingOverviewQuery = () =>
  queryOptions({ queryKey: ['/api/platform-subscription/billing'], queryFn: getJson<BillingOverview> });

/** The signed-in user's billing overview (for pages behind sign-in). */
export const useBillingOverview = () => useQuery(billingOverviewQuery());

/** Whether Manage Billing opens the provider's portal: billing is on and a billing account exists to show. */
export const opensBillingPortal = (
  overview: Pick<BillingOverview, 'billingEnabled' | 'canManageBilling'> | undefined,
) => Boolean(overview?.billingEnabled && overview.canManageBilling);

/** Asks for a customer-portal session that returns to `returnUrl`; answers where to send the browser. */
export const requestCustomerPortal = (returnUrl: string) =>
  apiRequest<Partial<RedirectUrlResponse> | undefined>('POST', '/api/platform-subscription/customer-portal', {
    returnUrl,
  });

/** Sends the browser to a URL the server gave (the provider's portal, or a page of the app with billing off). */
export const goTo = (url: string) => window.location.assign(url);
