import type { SubscriptionStatusValue } from '@contract/subscriptions';
import { POST_CHECKOUT_REFETCH_DELAY_MS } from '../../lib/constants';

// The return from checkout (spec seller-app §4): with session_id or success=true the page verifies the
// session (without a session id, billing off, the server says whether the plan is active). Activated shows
// Subscription Activated and refreshes the status; anything else shows the processing message and reads the
// status again after 3 s. The query string is cleared once it has been read.

export type CheckoutReturn =
  | { kind: 'none' }
  | { kind: 'verify'; sessionId: string | undefined }
  | { kind: 'cancelled' };

/** What the query string of /billing or /subscribe asks the page to do. */
export function readCheckoutReturn(search: string): CheckoutReturn {
  const params = new URLSearchParams(search);
  const sessionId = params.get('session_id')?.trim();
  if (sessionId) return { kind: 'verify', sessionId };
  if (params.get('success') === 'true') return { kind: 'verify', sessionId: undefined };
  if (params.get('cancelled') === 'true') return { kind: 'cancelled' };
  return { kind: 'none' };
}

/** unconfirmed: the later read still found no active plan; the page stops checking and says so. */
export type CheckoutPhase = 'idle' | 'checking' | 'activated' | 'processing' | 'unconfirmed' | 'cancelled';

export const initialCheckoutPhase = (checkoutReturn: CheckoutReturn): CheckoutPhase =>
  checkoutReturn.kind === 'none' ? 'idle' : checkoutReturn.kind === 'cancelled' ? 'cancelled' : 'checking';

export type CheckoutEvent =
  | { type: 'verified'; success: boolean }
  | { type: 'verify-failed' }
  | { type: 'status'; subscriptionStatus: SubscriptionStatusValue | undefined };

export type CheckoutEffect =
  /** Show Subscription Activated. */
  | { type: 'announce-activated' }
  /** Read the status again now (the server has just changed it). */
  | { type: 'refresh-status' }
  /** Read the status again after a while (a webhook may still be on its way). */
  | { type: 'refetch-status-later'; delayMs: number };

export type CheckoutStep = { phase: CheckoutPhase; effects: CheckoutEffect[] };

const activated = (refresh: boolean): CheckoutStep => ({
  phase: 'activated',
  effects: refresh ? [{ type: 'announce-activated' }, { type: 'refresh-status' }] : [{ type: 'announce-activated' }],
});
const processing: CheckoutStep = {
  phase: 'processing',
  effects: [{ type: 'refetch-status-later', delayMs: POST_CHECKOUT_REFETCH_DELAY_MS }],
};

/** The next phase and what to do on entering it; events that do not apply leave the phase as it is. */
export function checkoutStep(phase: CheckoutPhase, event: CheckoutEvent): CheckoutStep {
  const unchanged: CheckoutStep = { phase, effects: [] };
  if (phase === 'checking') {
    switch (event.type) {
      case 'verified':
        return event.success ? activated(true) : processing;
      case 'verify-failed':
        return processing;
      case 'status':
        return unchanged;
    }
  }
  // The one later read of the status: activation that arrived meanwhile is announced; otherwise the page
  // says that the payment is not confirmed yet (it does not poll on its own).
  if (phase === 'processing' && event.type === 'status') {
    return event.subscriptionStatus === 'active' ? activated(false) : { phase: 'unconfirmed', effects: [] };
  }
  return unchanged;
}

/** The page's URL without the checkout query, so that a reload does not verify again. */
export function withoutCheckoutQuery(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  for (const key of ['success', 'cancelled', 'session_id']) params.delete(key);
  const rest = params.toString();
  return rest ? `${pathname}?${rest}` : pathname;
}
