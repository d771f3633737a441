import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { toast } from '../../components/ui/use-toast';
import { CHECKOUT_TOAST_DURATION_MS } from '../../lib/constants';
import { subscriptionStatusQuery } from '../../lib/subscriptions/subscription-status';
import { invalidateSubscription, verifyCheckout } from './billing-hooks';
import {
  type CheckoutEvent,
  type CheckoutPhase,
  checkoutStep,
  initialCheckoutPhase,
  readCheckoutReturn,
  withoutCheckoutQuery,
} from './checkout-return';

/**
 * Handles /billing?success=true[&session_id=…] and /billing?cancelled=true once, when the page opens: verifies,
 * announces, reads the status again as the state machine says, and clears the query string.
 */
export function useCheckoutReturn(): CheckoutPhase {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [checkoutReturn] = useState(() => readCheckoutReturn(search));
  const [phase, setPhase] = useState<CheckoutPhase>(() => initialCheckoutPhase(checkoutReturn));
  const phaseRef = useRef(phase);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const started = useRef(false);

  const dispatch = useCallback(
    (event: CheckoutEvent) => {
      const step = checkoutStep(phaseRef.current, event);
      phaseRef.current = step.phase;
      setPhase(step.phase);
      for (const effect of step.effects) {
        if (effect.type === 'announce-activated') {
          toast({
            title: 'Subscription Activated',
            description: 'Your plan is active. Thank you for subscribing!',
            duration: CHECKOUT_TOAST_DURATION_MS,
          });
        } else if (effect.type === 'refresh-status') {
          void invalidateSubscription(queryClient);
        } else {
          toast({
            title: 'Processing Payment',
            description: 'Your payment is being processed. Your subscription will be active in a moment.',
            duration: CHECKOUT_TOAST_DURATION_MS,
          });
          timers.current.push(
            setTimeout(async () => {
              try {
                const status = await queryClient.fetchQuery({ ...subscriptionStatusQuery(), staleTime: 0 });
                await invalidateSubscription(queryClient);
                dispatch({ type: 'status', subscriptionStatus: status.subscriptionStatus });
              } catch {
                // The status card shows its own error; the processing message stays.
              }
            }, effect.delayMs),
          );
        }
      }
    },
    [queryClient],
  );

  useEffect(() => {
    // Once per page view, StrictMode's second run included: a checkout session is verified one time.
    if (started.current || checkoutReturn.kind === 'none') return;
    started.current = true;
    navigate(withoutCheckoutQuery(location, search), { replace: true });
    if (checkoutReturn.kind !== 'verify') return;
    verifyCheckout(checkoutReturn.sessionId).then(
      (result) => {
        if (result?.status) queryClient.setQueryData(subscriptionStatusQuery().queryKey, result.status);
        dispatch({ type: 'verified', success: Boolean(result?.success) });
      },
      () => dispatch({ type: 'verify-failed' }),
    );
  }, [checkoutReturn, dispatch, location, navigate, queryClient, search]);

  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  return phase;
}
