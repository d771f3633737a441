import { type OnboardingLink, type PayoutAccount, salesMessages } from '../../../contract/sales.js';
import type { ConnectAccount } from '../../adapters/payments/payments.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { appUrl } from '../../http/public-urls.js';
import {
  deleteSellerPayoutAccounts,
  findPayoutRow,
  insertPayoutRow,
  isKnownPayoutAccount,
  type PayoutRow,
  storePayoutState,
} from './payout.repository.js';

// The seller's payout account: a Stripe Connect Express account, onboarded through Account Links. What Stripe says
// is stored on each read that may have changed it (account.updated, the seller's return from onboarding).

type SellerRef = { id: string; email: string | null };

const TEST_MODE_ACCOUNT: PayoutAccount = {
  state: 'enabled',
  reason: null,
  testMode: true,
  accountId: null,
  chargesEnabled: true,
  payoutsEnabled: true,
};

function modeOf(ctx: AppContext): 'test' | 'live' {
  return ctx.payments.kind === 'stripe' ? ctx.payments.priceMode : 'test';
}

export function presentPayoutAccount(row: PayoutRow | undefined): PayoutAccount {
  if (!row) {
    return {
      state: 'not_connected',
      reason: null,
      testMode: false,
      accountId: null,
      chargesEnabled: false,
      payoutsEnabled: false,
    };
  }
  const state = row.chargesEnabled && row.payoutsEnabled ? 'enabled' : row.detailsSubmitted ? 'restricted' : 'pending';
  return {
    state,
    reason: state === 'enabled' ? null : row.disabledReason,
    testMode: false,
    accountId: row.stripeAccountId,
    chargesEnabled: row.chargesEnabled,
    payoutsEnabled: row.payoutsEnabled,
  };
}

function findRow(ctx: AppContext, sellerId: string): Promise<PayoutRow | undefined> {
  return findPayoutRow(ctx.db, sellerId, modeOf(ctx));
}

function store(ctx: AppContext, account: ConnectAccount): Promise<PayoutRow | undefined> {
  return storePayoutState(ctx.db, account.id, {
    chargesEnabled: account.chargesEnabled,
    payoutsEnabled: account.payoutsEnabled,
    detailsSubmitted: account.detailsSubmitted,
    disabledReason: account.disabledReason,
    updatedAt: ctx.clock.now(),
  });
}

/** account.updated (and any doubt): read the account again from Stripe and keep what it says. */
export async function syncPayoutAccount(ctx: AppContext, accountId: string): Promise<void> {
  if (ctx.payments.kind !== 'stripe') return;
  if (!(await isKnownPayoutAccount(ctx.db, accountId))) return;
  await store(ctx, await ctx.payments.connect.retrieveAccount(accountId));
}

/** GET /api/sales/payout-account. A not yet enabled account is read again from Stripe (the seller may be back from onboarding). */
export async function getPayoutAccount(ctx: AppContext, seller: SellerRef): Promise<PayoutAccount> {
  if (ctx.payments.kind !== 'stripe') return TEST_MODE_ACCOUNT;
  let row = await findRow(ctx, seller.id);
  if (row && !(row.chargesEnabled && row.payoutsEnabled)) {
    row = (await store(ctx, await ctx.payments.connect.retrieveAccount(row.stripeAccountId))) ?? row;
  }
  return presentPayoutAccount(row);
}

/** The seller's payout account when it can take payments (Stripe mode). */
export async function findEnabledPayoutAccount(ctx: AppContext, sellerId: string): Promise<PayoutRow | undefined> {
  const row = await findRow(ctx, sellerId);
  return row?.chargesEnabled ? row : undefined;
}

/** A path of the app, never another origin (`//evil.example` is one). */
function parseReturnPath(path: string | undefined): string {
  if (!path) return '/dashboard';
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) {
    throw new AppError('VALIDATION_FAILED', 'returnPath must be a path of this app, such as /dashboard');
  }
  return path;
}

/** POST /api/sales/payout-account/onboarding-link: creates the Express account once, then a fresh Account Link. */
export async function createOnboardingLink(
  ctx: AppContext,
  seller: SellerRef,
  input: { returnPath?: string } | null | undefined,
): Promise<OnboardingLink> {
  if (ctx.payments.kind !== 'stripe') {
    throw new AppError('CONFLICT', salesMessages.testModeNoOnboarding, {
      suggestion: 'Billing is off: purchases complete at once as test sales.',
    });
  }
  const connect = ctx.payments.connect;
  const returnPath = parseReturnPath(input?.returnPath);
  let row = await findRow(ctx, seller.id);
  if (!row) {
    // An account of the other mode (the admin switched between sandbox and live) cannot take these payments.
    await deleteSellerPayoutAccounts(ctx.db, seller.id);
    const account = await connect.createAccount({ sellerId: seller.id, email: seller.email });
    const now = ctx.clock.now();
    row = await insertPayoutRow(ctx.db, {
      sellerId: seller.id,
      stripeAccountId: account.id,
      mode: modeOf(ctx),
      chargesEnabled: account.chargesEnabled,
      payoutsEnabled: account.payoutsEnabled,
      detailsSubmitted: account.detailsSubmitted,
      disabledReason: account.disabledReason,
      createdAt: now,
      updatedAt: now,
    });
    // Two clicks at once: the first account stored wins; the other stays unused at Stripe.
    row ??= await findRow(ctx, seller.id);
    if (!row) throw new AppError('CONFLICT', 'The payout account changed meanwhile; try again');
  }
  const separator = returnPath.includes('?') ? '&' : '?';
  const url = await connect.createAccountLink(
    row.stripeAccountId,
    appUrl(ctx.config, `${returnPath}${separator}payout=refresh`),
    appUrl(ctx.config, `${returnPath}${separator}payout=return`),
  );
  return { url };
}
