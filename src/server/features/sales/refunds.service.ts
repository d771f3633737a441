import type { AppContext } from '../../context.js';
import { crashPoint } from '../../lib/crash-points.js';
import { setPurchaseGrantTerms } from '../licenses/grants.service.js';
import { applyCheckoutSession } from './sale-fulfilment.service.js';
import {
  endPaidSale,
  findSaleBySession,
  findSalesPaidBy,
  findSubscriptionGrantId,
  type Sale,
} from './sales.repository.js';
import { connectOf } from './sales.service.js';

// Refunds and lost disputes (Connect's charge.refunded and charge.dispute.closed): the sales a payment paid end,
// and the license they gave is revoked.

/**
 * A refund or lost dispute of a payment. When the payment's sale is not known as paid yet (the refund's event
 * overtook the checkout's), the checkout is applied first, then ended: the true end state either way.
 */
export async function endSalesPaidBy(
  ctx: AppContext,
  account: string,
  paymentIntentId: string,
  status: 'refunded' | 'disputed',
): Promise<void> {
  let found = await findSalesPaidBy(ctx.db, account, paymentIntentId);
  if (found.length === 0) {
    const session = await connectOf(ctx).findCheckoutSessionByPaymentIntent(account, paymentIntentId);
    const sale = session ? await findSaleBySession(ctx.db, session.id) : undefined;
    if (sale) found = [await applyCheckoutSession(ctx, sale)];
  }
  for (const sale of found) await endSale(ctx, sale, status);
}

/**
 * Ends the access a sale gave (refund, lost dispute): the sale takes `status` and its grant is revoked, in one
 * transaction; a sale already ended is left as it is (an event applied again changes nothing).
 */
export async function endSale(ctx: AppContext, sale: Sale, status: 'refunded' | 'disputed'): Promise<void> {
  const ended = await ctx.db.transaction(async (tx) => {
    const ended = await endPaidSale(tx, sale.id, status, ctx.clock.now());
    if (!ended) return undefined;
    crashPoint(ctx, 'sale-ended');
    // A renewal's refund ends the subscription's purchase, whose grant it is.
    let grantId = ended.grantId;
    if (!grantId && ended.subscriptionId) grantId = await findSubscriptionGrantId(tx, ended.subscriptionId);
    if (grantId) await setPurchaseGrantTerms(ctx, grantId, { status: 'revoked' }, { db: tx });
    return ended;
  });
  if (!ended) return;
  ctx.log.info({ saleId: ended.id, status }, 'sale ended');
  crashPoint(ctx, 'refund-applied');
}
