import {
  PURCHASE_SUCCESS_PATH,
  type StartCheckoutResponse,
  salesMessages,
  type TestPurchaseInput,
} from '../../../contract/sales.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { organizationOf, type Principal } from '../../http/principal.js';
import { generateToken } from '../../lib/crypto.js';
import { parseHolderEmail } from '../licenses/grants.service.js';
import type { PriceTarget } from './pricing.repository.js';
import { fulfilSale } from './sale-fulfilment.service.js';
import { platformFeeCents } from './sale-rules.js';
import { deletePendingSale, insertSale } from './sales.repository.js';
import { getSaleOffer, isTestMode } from './sales.service.js';

// The seller's test purchase (DESIGN "Selling", issue 28): with billing off no buyer can check out, and the signed-in
// seller runs the whole flow on their own package instead: a sale marked test, paid at once, fulfilled as a paid one
// is (a purchase grant, the e-mail, the `purchase.completed` event with isTest), its success page on the seller's
// repository host. Only the seller's own credentials reach it: an anonymous buyer never gets a sale for nothing.

/** Prefix of a test sale's session id: never one of Stripe's (`cs_test_`, `cs_live_`). */
const TEST_SESSION_PREFIX = 'cs_packgate_test_';

/**
 * POST /api/repositories/{id}/test-purchase and /api/products/{productId}/test-purchase: a completed test sale of
 * the seller's own package or product (404 for anyone else's; a product's license covers every package in it, as a
 * buyer's purchase of the product gives), for `email` or the seller's own address. Billing on, buyers pay for
 * real: 409.
 */
export async function runTestPurchase(
  ctx: AppContext,
  actor: Principal,
  target: PriceTarget,
  input: TestPurchaseInput,
): Promise<StartCheckoutResponse> {
  const offer = await getSaleOffer(ctx, actor.sellerId, target, { tierId: input.tierId });
  if (!isTestMode(ctx)) {
    throw new AppError('CONFLICT', salesMessages.testPurchaseBillingOn, {
      suggestion: salesMessages.testPurchaseBillingOnSuggestion,
    });
  }
  // The organisation's own address when none is given.
  const address = input.email?.trim() || organizationOf(actor).email;
  if (!address) throw new AppError('VALIDATION_FAILED', salesMessages.emailRequired);
  const email = parseHolderEmail(address);
  const { tier, item, repositoryUrl } = offer;
  const now = ctx.clock.now();
  const sessionId = `${TEST_SESSION_PREFIX}${generateToken('s').slice(2)}`;
  const pending = await insertSale(ctx.db, {
    sellerId: actor.sellerId,
    ...item.target,
    priceId: tier.id,
    kind: 'purchase',
    isTest: true,
    pricingType: tier.pricingType,
    tierName: tier.name,
    customerEmail: email,
    amountCents: tier.priceCents,
    feeCents: platformFeeCents(tier.priceCents),
    currency: tier.currency,
    checkoutSessionId: sessionId,
    createdAt: now,
  });
  try {
    await fulfilSale(ctx, pending, { email, paidAt: now, amountCents: tier.priceCents }, { actor });
  } catch (error) {
    // Nothing is waiting to complete a test sale: one that failed is not left behind as pending.
    await deletePendingSale(ctx.db, pending.id);
    throw error;
  }
  return {
    checkoutUrl: `${repositoryUrl}${PURCHASE_SUCCESS_PATH}?session_id=${encodeURIComponent(sessionId)}`,
    sessionId,
    testMode: true,
  };
}
