import type {
  BillingOverview,
  CancelSubscriptionResponse,
  RedirectUrlResponse,
  StripeConfigResponse,
  VerifyCheckoutResponse,
} from '@contract/billing';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { failureToast } from '../../components/failure-toast';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { CHECKOUT_REDIRECT_DELAY_MS } from '../../lib/constants';
import { billingOverviewQuery } from '../../lib/subscriptions/billing-portal';
import { subscriptionStatusQuery } from '../../lib/subscriptions/subscription-status';
import { checkoutUrls } from './plan-rules';

export type { BillingOverview };

export const stripeConfigQuery = () =>
  queryOptions({ queryKey: ['/api/stripe/config'], queryFn: getJson<StripeConfigResponse> });
export const useStripeConfig = () => useQuery(stripeConfigQuery());

export { useCustomerPortal } from '../../components/manage-billing-button';
export { billingOverviewQuery, useBillingOverview } from '../../lib/subscriptions/billing-portal';

export const CREATE_SUBSCRIPTION_FAILED = 'Failed to create subscription. Please try again.';
export const NO_CHECKOUT_URL = 'No checkout URL received';

/** Sends the browser to a URL the server gave (Stripe's pages, or a page of the app with billing off). */
const goTo = (url: string) => window.location.assign(url);

/**
 * Starts checkout for a tier and goes to the returned URL 0.5 s later (spec seller-app §4). `pendingTier`
 * stays set until the browser leaves, so that every plan button stays disabled; a failure clears it.
 */
export function useStartCheckout(onFailure: () => void) {
  const [pendingTier, setPendingTier] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (tier: string) =>
      apiRequest<Partial<RedirectUrlResponse> | undefined>('POST', '/api/platform-subscription/create', {
        tier,
        ...checkoutUrls(window.location.origin),
      }),
    onMutate: (tier) => setPendingTier(tier),
    onSuccess: (response) => {
      if (!response?.url) {
        setPendingTier(null);
        onFailure();
        toast({ variant: 'destructive', title: 'Error', description: NO_CHECKOUT_URL });
        return;
      }
      const url = response.url;
      setTimeout(() => goTo(url), CHECKOUT_REDIRECT_DELAY_MS);
    },
    onError: (error) => {
      setPendingTier(null);
      onFailure();
      failureToast('Error', error, CREATE_SUBSCRIPTION_FAILED);
    },
  });
  return { startCheckout: (tier: string) => mutation.mutate(tier), pendingTier };
}

/** Without a session id the server says whether the plan is active (billing off, or no session named). */
export const verifyCheckout = (sessionId: string | undefined) =>
  apiRequest<VerifyCheckoutResponse>(
    'POST',
    '/api/platform-subscription/verify-checkout',
    sessionId ? { sessionId } : {},
  );

/** Cancels at the end of the paid period (the screen never cancels at once: spec admin §4). */
export function useCancelSubscription(onCancelled: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<CancelSubscriptionResponse>('POST', '/api/platform-subscription/cancel', { immediately: false }),
    onSuccess: async (response) => {
      toast({ title: 'Subscription Cancelled', description: response?.message });
      await invalidateSubscription(queryClient);
      onCancelled();
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Failed to cancel subscription',
        description: errorMessage(error, 'Please try again in a moment.'),
      }),
  });
}

/** Everything that shows the plan: the status (banners, cards) and the billing overview. */
export function invalidateSubscription(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: subscriptionStatusQuery().queryKey }),
    queryClient.invalidateQueries({ queryKey: billingOverviewQuery().queryKey }),
  ]);
}
