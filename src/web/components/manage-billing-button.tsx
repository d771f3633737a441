import { useMutation } from '@tanstack/react-query';
import { CreditCard, Loader2 } from 'lucide-react';
import { Link } from 'wouter';
import {
  goTo,
  opensBillingPortal,
  requestCustomerPortal,
  useBillingOverview,
} from '../lib/subscriptions/billing-portal';
import { failureToast } from './failure-toast';
import { Button } from './ui/button';
import { toast } from './ui/use-toast';

const PORTAL_FAILED = 'Failed to open billing portal';

/** Opens the provider's billing portal and returns to this page; a toast says when it could not. */
export function useCustomerPortal() {
  return useMutation({
    mutationFn: () => requestCustomerPortal(window.location.href),
    onSuccess: (response) => {
      if (response?.url) goTo(response.url);
      else toast({ variant: 'destructive', title: 'Error', description: PORTAL_FAILED });
    },
    onError: (error) => failureToast('Error', error, PORTAL_FAILED),
  });
}

/**
 * The Dashboard's Manage Billing and Subscription (spec seller-app §2, §7): the provider's customer portal when
 * billing is on and there is a billing account; /billing otherwise (billing off, a trial, an admin).
 */
export function ManageBillingButton() {
  const overview = useBillingOverview();
  const portal = useCustomerPortal();
  if (!opensBillingPortal(overview.data)) {
    return (
      <Button asChild>
        <Link href="/billing" data-testid="manage-billing">
          <CreditCard />
          Manage Billing and Subscription
        </Link>
      </Button>
    );
  }
  return (
    <Button onClick={() => portal.mutate()} disabled={portal.isPending} data-testid="manage-billing">
      {portal.isPending ? <Loader2 className="animate-spin" /> : <CreditCard />}
      Manage Billing and Subscription
    </Button>
  );
}
