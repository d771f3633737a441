import type { FastifyBaseLogger } from 'fastify';
import type { StripeConfig, StripeKeyPair } from '../../config.js';
import type { Payments } from './payments.js';

// Which payments implementation a process runs, decided once at start-up: the admin's sandbox setting picks the
// key pair (spec admin §2: changing it needs a restart), and without that pair billing is off.

const isTestKey = (key: string) => /^(sk|rk)_test_/.test(key);

/**
 * The sandbox mode when the admin never chose one: live only when just the live pair is configured, so that an
 * operator who set up test keys is never charged for real by default.
 */
export function defaultSandboxMode(stripe: StripeConfig): boolean {
  return !(stripe.live && !stripe.test);
}

/** Parses the stored setting; anything but 'true'/'false' falls back to the default. */
export function resolveSandboxMode(stored: string | undefined, stripe: StripeConfig): boolean {
  if (stored === 'true') return true;
  if (stored === 'false') return false;
  return defaultSandboxMode(stripe);
}

/**
 * The pair for the mode: sandbox takes the test pair (or STRIPE_SECRET_KEY when that holds a test key), live takes
 * STRIPE_SECRET_KEY. Undefined: billing off.
 */
export function keyPairFor(sandboxMode: boolean, stripe: StripeConfig): StripeKeyPair | undefined {
  if (sandboxMode) return stripe.test ?? (stripe.live && isTestKey(stripe.live.secretKey) ? stripe.live : undefined);
  return stripe.live;
}

/** The variables a mode still needs before billing can run in it; empty when its pair is there. */
export function missingStripeVariables(sandboxMode: boolean, stripe: StripeConfig): string[] {
  if (keyPairFor(sandboxMode, stripe)) return [];
  return sandboxMode
    ? ['STRIPE_TEST_SECRET_KEY', 'STRIPE_TEST_WEBHOOK_SECRET']
    : ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'];
}

/**
 * Billing off, or Stripe with the mode's key pair. Stripe's library (about 4 MB of V8's heap and 18 MB resident) is
 * loaded only here, when billing is on: most servers never charge (issue 34 item 3).
 */
export async function createPayments(
  stripe: StripeConfig,
  sandboxMode: boolean,
  log: FastifyBaseLogger,
): Promise<Payments> {
  const keys = keyPairFor(sandboxMode, stripe);
  if (!keys) {
    if (stripe.live || stripe.test) {
      const missing = missingStripeVariables(sandboxMode, stripe).join(' and ');
      log.warn(
        `payments: ${sandboxMode ? 'sandbox' : 'live'} mode is selected but ${missing} are not set; billing is off`,
      );
    } else {
      log.info('payments: billing off (no STRIPE_* settings); a chosen plan activates without a charge');
    }
    return { kind: 'off', sandboxMode };
  }
  const { StripePaymentsGateway } = await import('./stripe-gateway.js');
  const gateway = new StripePaymentsGateway(keys, stripe.apiUrl, sandboxMode, log);
  log.info(`payments: Stripe in ${sandboxMode ? 'sandbox' : 'live'} mode (${gateway.priceMode} keys)`);
  return gateway;
}
