import type {
  OnboardingLink,
  PackagePrice,
  PackagePriceInput,
  PayoutAccount,
  PurchasePage,
  PurchaseResult,
  SellerSalesSummary,
  StartCheckoutInput,
  StartCheckoutResponse,
  TestPurchaseInput,
} from '@contract/sales';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';

export type { PackagePrice, PayoutAccount, PurchasePage, PurchaseResult, SellerSalesSummary, StartCheckoutResponse };

/** How often the success page asks again while the payment is not confirmed yet. */
export const PURCHASE_POLL_MS = 2000;

/** A package's or (isProduct, issue 31) a product's prices. */
export type PricingTarget = { id: string; isProduct?: boolean };
const pricesPath = ({ id, isProduct }: PricingTarget) =>
  `/api/${isProduct ? 'products' : 'repositories'}/${encodeURIComponent(id)}/pricing-tiers`;

// ---- Seller: pricing ------------------------------------------------------------------------------------

/** Every tier of a package, active or not; read afresh whenever the Pricing dialog opens. */
export const pricesQuery = (target: PricingTarget) =>
  queryOptions({
    queryKey: [pricesPath(target)],
    queryFn: getJson<PackagePrice[]>,
    refetchOnMount: 'always',
  });
export const usePrices = (target: PricingTarget) => useQuery(pricesQuery(target));

export const savePrices = (target: PricingTarget, tiers: PackagePriceInput[]) =>
  apiRequest<PackagePrice[]>('PUT', pricesPath(target), { tiers });

export function useSavePrices(pkg: PricingTarget & { packageName: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tiers: PackagePriceInput[]) => savePrices(pkg, tiers),
    onSuccess: (saved) => {
      queryClient.setQueryData(pricesQuery(pkg).queryKey, saved);
      toast({ title: 'Pricing Saved', description: `The purchase page of ${pkg.packageName} shows the new prices.` });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Failed to save pricing',
        description: errorMessage(error, 'Please try again in a moment.'),
      }),
  });
}

// ---- Seller: payout account and figures ---------------------------------------------------------------

export const PAYOUT_ACCOUNT_PATH = '/api/sales/payout-account';

export const payoutAccountQuery = () =>
  queryOptions({ queryKey: [PAYOUT_ACCOUNT_PATH], queryFn: getJson<PayoutAccount> });
export const usePayoutAccount = () => useQuery(payoutAccountQuery());

export const createOnboardingLink = () =>
  apiRequest<OnboardingLink>('POST', `${PAYOUT_ACCOUNT_PATH}/onboarding-link`, { returnPath: '/dashboard' });

/** Opens Stripe's onboarding in this tab: it sends the seller back to the Dashboard when done. */
export function useConnectPayoutAccount() {
  return useMutation({
    mutationFn: createOnboardingLink,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Failed to open onboarding',
        description: errorMessage(error, 'Please try again in a moment.'),
      }),
  });
}

/**
 * The seller's test purchase of their own package or product (billing off): completed at once, then the browser
 * opens its success page on the repository host, as a buyer's would.
 */
export const runTestPurchase = (id: string, input: TestPurchaseInput, isProduct = false) =>
  apiRequest<StartCheckoutResponse>(
    'POST',
    `/api/${isProduct ? 'products' : 'repositories'}/${encodeURIComponent(id)}/test-purchase`,
    input,
  );

export function useTestPurchase(id: string, isProduct = false) {
  return useMutation({
    mutationFn: (input: TestPurchaseInput) => runTestPurchase(id, input, isProduct),
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
  });
}

export const salesSummaryQuery = () =>
  queryOptions({ queryKey: ['/api/sales/summary'], queryFn: getJson<SellerSalesSummary> });
export const useSalesSummary = () => useQuery(salesSummaryQuery());

// ---- Buyer: purchase page, checkout, result -----------------------------------------------------------

export const purchasePageQuery = (target: PricingTarget) =>
  queryOptions({
    queryKey: [`/api/purchase/${target.isProduct ? 'products' : 'packages'}/${encodeURIComponent(target.id)}`],
    queryFn: getJson<PurchasePage>,
    retry: false,
  });
export const usePurchasePage = (target: PricingTarget) =>
  useQuery({ ...purchasePageQuery(target), enabled: Boolean(target.id) });

export const startCheckout = (input: StartCheckoutInput) =>
  apiRequest<StartCheckoutResponse>('POST', '/api/purchase/checkout', input);

/** Starts checkout and follows it to Stripe Checkout (refused while payments are not set up). */
export function useStartCheckout() {
  return useMutation({
    mutationFn: startCheckout,
    onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
  });
}

/** The purchase behind the success page; asked again every 2 s while the payment is still pending. */
export const purchaseResultQuery = (sessionId: string) =>
  queryOptions({
    queryKey: [`/api/purchase/sessions/${encodeURIComponent(sessionId)}`],
    queryFn: getJson<PurchaseResult>,
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PURCHASE_POLL_MS : false),
  });
export const usePurchaseResult = (sessionId: string) =>
  useQuery({ ...purchaseResultQuery(sessionId), enabled: Boolean(sessionId) });
