import { z } from 'zod';
import { entityId } from './ids.js';

// Selling (issue 11; DESIGN "Selling"; spec admin §1, §3): a seller connects a payout account (Stripe Connect,
// Express), sets pricing tiers per package, buyers pay on the seller's repository host, a sale creates a grant
// of kind `purchase`. With billing off (the embedded default) buyers cannot check out ("Payments are not set up for
// this seller"); the signed-in seller can run a test purchase of their own package, which completes at once without
// a provider and is marked as a test wherever it appears (issue 28: anonymous test sales gave anyone a license).
//
// Routes (all JSON; errors in the app's shape {error, message, suggestion?, status, code}):
//
// Seller (session cookie; state-changing calls carry the CSRF header):
//   GET  /api/sales/payout-account                        -> PayoutAccount
//   POST /api/sales/payout-account/onboarding-link        {returnPath?} -> OnboardingLink ({url}: Stripe's
//        Account Link; in test-sales mode 409 CONFLICT "Test sales need no payout account")
//   GET  /api/repositories/{id}/pricing-tiers             -> PackagePrice[] (every tier, active or not)
//   PUT  /api/repositories/{id}/pricing-tiers             ReplacePricesInput -> PackagePrice[]
//        (replaces the list: a tier with a known id is updated, without id created, one left out is deleted
//        unless it has sales, then it is kept and deactivated)
//   GET  /api/sales/summary                               -> SellerSalesSummary (Dashboard)
//   POST /api/repositories/{id}/test-purchase             TestPurchaseInput -> StartCheckoutResponse (billing off
//        only, else 409; the seller's own package, else 404; `checkoutUrl` is the success page of the test sale)
//
// Buyer (public, on the seller's repository host `{slug}.{COMPOSER_DOMAIN}` or its verified custom domain; the
// host decides the seller; no session, no CSRF: the calls act on nobody's account):
//   GET  /api/purchase/packages/{id}                      -> PurchasePage (404 when the package is not this
//        host's seller's, inactive, or has no active tier)
//   POST /api/purchase/checkout                           StartCheckoutInput -> StartCheckoutResponse (409
//        "Payments are not set up for this seller" with billing off: nothing is recorded)
//   GET  /api/purchase/checkout?package=&tier=[&email=&successUrl=&cancelUrl=&sig=]  the direct-checkout link: 303
//        to the purchase page with the same fields. A GET never starts, records or completes a sale (link previews
//        and mail scanners open links); the page's Buy button POSTs.
//   GET  /api/purchase/sessions/{sessionId}               -> PurchaseResult ('pending' until paid; poll it)
//
// Admin (admin session):
//   GET  /api/admin/stats                                 -> AdminStats, now with the AdminSalesFigures fields
//
// Provider:
//   POST /api/stripe/connect-webhook                      Stripe Connect events (signature verified)
//
// Web pages (H3): `{repositoryUrl}/purchase?package={packageId}[&tier=&email=&successUrl=&cancelUrl=&sig=
// &cancelled=true]` and
// `{repositoryUrl}/purchase/success?session_id={CHECKOUT_SESSION_ID}`.

/** The platform's application fee: 5% of the amount (spec admin §1, §9). */
export const PLATFORM_FEE_PERCENT = 5;
/** Stripe's smallest charge in USD and most currencies; a lower price could never be paid. */
export const MIN_PRICE_CENTS = 50;
export const MAX_PRICE_CENTS = 99_999_999;
export const MAX_TRIAL_DAYS = 365;
export const MAX_UPDATE_MONTHS = 120;
export const MAX_PRICES_PER_PACKAGE = 10;
export const DEFAULT_CURRENCY = 'usd';
/** Currencies a seller may price in (lower-case ISO 4217, as Stripe writes them; all with two decimals). */
export const SALE_CURRENCIES = ['usd', 'eur', 'gbp', 'cad', 'aud', 'chf', 'sek', 'nok', 'dkk', 'pln'] as const;
export type SaleCurrency = (typeof SALE_CURRENCIES)[number];

export const PURCHASE_PAGE_PATH = '/purchase';
export const PURCHASE_SUCCESS_PATH = '/purchase/success';
/**
 * A buy link (GET with package, tier and optional email, successUrl, cancelUrl and sig): it opens the purchase page
 * with those fields, never a checkout by itself.
 */
export const PURCHASE_CHECKOUT_PATH = '/api/purchase/checkout';

export const salesMessages = {
  priceInvalid: `The price must be a whole number of cents from ${MIN_PRICE_CENTS} to ${MAX_PRICE_CENTS}`,
  currencyInvalid: `The currency must be one of ${SALE_CURRENCIES.join(', ')}`,
  currencyMismatch: 'All prices of a seller are in one currency',
  checkoutTargetInvalid: 'Name what to buy: packageId for a package or productId for a product, not both',
  currencyMismatchSuggestion: 'Use the currency of your other prices, or change those first',
  intervalRequired: 'A subscription is billed monthly or yearly: choose month or year',
  updateMonthsInvalid: `Months of updates must be a whole number from 1 to ${MAX_UPDATE_MONTHS}`,
  trialDaysInvalid: `Trial days must be a whole number from 0 to ${MAX_TRIAL_DAYS}`,
  trialOnlyForSubscriptions: 'Only a subscription can have trial days',
  nameRequired: 'A tier needs a name',
  tooManyTiers: `A package has at most ${MAX_PRICES_PER_PACKAGE} pricing tiers`,
  unknownTier: 'Pricing tier not found',
  tierInactive: 'This pricing tier is not for sale',
  packageNotForSale: 'This package is not for sale',
  packageInactive: 'This package is inactive',
  noPrices: 'This package has no prices yet',
  noPricesSuggestion: 'Set a price in the Pricing dialog of the package first',
  noPayoutAccount: 'Connect a payout account before selling',
  noPayoutAccountSuggestion: 'Open the Dashboard and connect your payout account',
  payoutAccountNotEnabled: 'The payout account cannot take payments yet',
  testModeNoOnboarding: 'Test sales need no payout account',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  saleNotFound: 'Purchase not found',
  salesUnavailable: 'Payments are not configured',
  /** A buyer's checkout with billing off (issue 28): the purchase page says it, the checkout answers it. */
  paymentsNotSetUp: 'Payments are not set up for this seller',
  testPurchaseBillingOn: 'Test purchases run only while billing is off',
  testPurchaseBillingOnSuggestion: 'Buy through the purchase page: payments are set up on this server',
  returnUrlsUnsigned: 'successUrl and cancelUrl come only from a purchase link made through the API',
} as const;

export const pricingTypes = ['one_time', 'subscription'] as const;
export type PricingType = (typeof pricingTypes)[number];
export const billingIntervals = ['month', 'year'] as const;
export type BillingInterval = (typeof billingIntervals)[number];

// ---- Payout account -------------------------------------------------------------------------------------

export const payoutAccountStates = ['not_connected', 'pending', 'enabled', 'restricted'] as const;
export type PayoutAccountState = (typeof payoutAccountStates)[number];

/**
 * The seller's payout account (Stripe Connect Express).
 * - pending: onboarding started, details still due; restricted: Stripe disabled charges or payouts (reason:
 *   Stripe's `requirements.disabled_reason`, e.g. `requirements.past_due`).
 * - testMode: billing is off; buyers cannot check out, the seller's test purchases complete at once without a
 *   provider and are marked test; state is then `enabled` and no onboarding is needed.
 */
export const payoutAccount = z.object({
  state: z.enum(payoutAccountStates),
  reason: z.string().nullable(),
  testMode: z.boolean(),
  accountId: z.string().nullable(),
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
});
export type PayoutAccount = z.infer<typeof payoutAccount>;

/** returnPath: a path of the app to come back to after onboarding (default /dashboard). */
export const onboardingLinkInput = z.object({ returnPath: z.string().max(500).optional() }).nullish();
export const onboardingLink = z.object({ url: z.string() });
export type OnboardingLink = z.infer<typeof onboardingLink>;

// ---- Pricing tiers of a package ------------------------------------------------------------------------

/**
 * One pricing tier of a package.
 * - one_time: lifetime access to the versions released during `updateMonths` months of updates, then the
 *   license freezes (older versions stay installable); interval and trialDays are null.
 * - subscription: billed each `interval`; access while paid; optional trialDays; updateMonths is null.
 */
export const packagePrice = z.object({
  id: z.string(),
  /** Null for a price of a product (productId). */
  packageId: z.string().nullable(),
  productId: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  pricingType: z.enum(pricingTypes),
  interval: z.enum(billingIntervals).nullable(),
  updateMonths: z.number().int().nullable(),
  trialDays: z.number().int().nullable(),
  /** A price for a version range ("Version 2 licence", issue 31): the license it sells covers these versions only. */
  versionConstraint: z.string().nullable(),
  priceCents: z.number().int(),
  currency: z.string(),
  isActive: z.boolean(),
  sortOrder: z.number().int(),
  /** Completed sales of this tier (a tier with sales is deactivated instead of deleted). */
  salesCount: z.number().int(),
});
export type PackagePrice = z.infer<typeof packagePrice>;
export const packagePriceList = z.array(packagePrice);

/** Loose on purpose: the service checks each rule and answers with the sentences in `salesMessages`. */
export const packagePriceInput = z.object({
  id: z.string().max(100).optional(),
  name: z.string().max(100),
  description: z.string().max(1000).nullish(),
  pricingType: z.enum(pricingTypes),
  interval: z.enum(billingIntervals).nullish(),
  updateMonths: z.number().nullish(),
  trialDays: z.number().nullish(),
  /** A Composer constraint (`^2.0`); the service checks it with Composer's parser. Empty: every version. */
  versionConstraint: z.string().max(200).nullish(),
  priceCents: z.number(),
  currency: z.string().max(10),
  isActive: z.boolean().optional(),
});
export type PackagePriceInput = z.infer<typeof packagePriceInput>;
export const replacePricesInput = z.object({ tiers: z.array(packagePriceInput).max(50) });
export type ReplacePricesInput = z.infer<typeof replacePricesInput>;

// ---- Buyer: purchase page, checkout, result ------------------------------------------------------------

export const purchasePagePrice = packagePrice.pick({
  id: true,
  name: true,
  description: true,
  pricingType: true,
  interval: true,
  updateMonths: true,
  trialDays: true,
  versionConstraint: true,
  priceCents: true,
  currency: true,
});
export type PurchasePagePrice = z.infer<typeof purchasePagePrice>;

export const purchasePage = z.object({
  /** What is sold: the package, or for a product's page the product (packageName is then the product's name). */
  package: z.object({ id: z.string(), packageName: z.string(), description: z.string().nullable() }),
  /** A product's page (issue 31): the packages one purchase licenses; null on a package's page. */
  product: z
    .object({ id: z.string(), name: z.string(), packages: z.array(z.object({ id: z.string(), name: z.string() })) })
    .nullable(),
  /** Active tiers, in the seller's order (shown even when they cannot be bought). */
  tiers: z.array(purchasePagePrice),
  /** Whether a buyer can check out here; false with billing off ("Payments are not set up for this seller"). */
  canCheckout: z.boolean(),
  repositoryUrl: z.string(),
});
export type PurchasePage = z.infer<typeof purchasePage>;

export const purchasePackageParams = z.object({ id: entityId });
export const purchaseSessionParams = z.object({ sessionId: z.string().max(300) });

/**
 * What a purchase link made through API v1 carries on to the checkout: where Checkout returns to, and the currency
 * the link was written for (POST /api/v1/packages/{id}/purchase-links takes them, the purchase page passes them on).
 */
export const purchaseLinkCheckoutFields = z.object({
  successUrl: z.string().max(2000).optional(),
  cancelUrl: z.string().max(2000).optional(),
  currency: z.string().max(10).optional(),
});

/**
 * currency, when given, must be the tier's (a buy button written for another currency is refused). successUrl and
 * cancelUrl come from a purchase link made through API v1 and need its `sig` (the purchase page passes all three
 * on from its address): without it anyone could send a buyer's checkout session to an address of theirs.
 */
export const startCheckoutInput = z.object({
  /** Exactly one of packageId and productId (a product's purchase page, issue 31). */
  packageId: z.string().max(200).optional(),
  productId: z.string().max(200).optional(),
  tierId: z.string().max(200),
  email: z.string().max(320).optional(),
  ...purchaseLinkCheckoutFields.shape,
  sig: z.string().max(200).optional(),
});
export type StartCheckoutInput = z.infer<typeof startCheckoutInput>;

/** The seller's test purchase of their own package (billing off): the e-mail defaults to the seller's own. */
export const testPurchaseInput = z.object({
  tierId: z.string().max(200),
  email: z.string().max(320).optional(),
});
export type TestPurchaseInput = z.infer<typeof testPurchaseInput>;

/**
 * Where to send the browser: Stripe Checkout on the seller's account, or (a seller's test purchase) straight to the
 * success page, the purchase already complete.
 */
export const startCheckoutResponse = z.object({
  checkoutUrl: z.string(),
  sessionId: z.string(),
  testMode: z.boolean(),
});
export type StartCheckoutResponse = z.infer<typeof startCheckoutResponse>;

export const purchaseStatuses = ['pending', 'complete', 'expired', 'refunded'] as const;
export type PurchaseStatus = (typeof purchaseStatuses)[number];

/**
 * The success page. token: the buyer's new Composer token, shown for 24 hours after the purchase (it is also in
 * the e-mail); null when the buyer already had a token for this seller (the package was added to it:
 * `hasExistingToken` true, the commands carry YOUR_TOKEN) or once the 24 hours have passed.
 */
export const purchaseResult = z.object({
  status: z.enum(purchaseStatuses),
  /** The package sold, or the product's name for a product's sale. */
  packageName: z.string(),
  /** A product's sale (issue 31): its name and the packages the license covers; null and the one package otherwise. */
  productName: z.string().nullable(),
  packageNames: z.array(z.string()),
  tierName: z.string(),
  repositoryUrl: z.string(),
  token: z.string().nullable(),
  hasExistingToken: z.boolean(),
  setupCommands: z.array(z.string()),
  customerEmail: z.string().nullable(),
  testMode: z.boolean(),
});
export type PurchaseResult = z.infer<typeof purchaseResult>;

// ---- Figures ---------------------------------------------------------------------------------------------

export const saleStatuses = ['pending', 'paid', 'refunded', 'disputed'] as const;
export type SaleStatus = (typeof saleStatuses)[number];

export const sellerSale = z.object({
  id: z.string(),
  packageName: z.string(),
  tierName: z.string(),
  customerEmail: z.string(),
  amountCents: z.number().int(),
  feeCents: z.number().int(),
  currency: z.string(),
  status: z.enum(saleStatuses),
  test: z.boolean(),
  createdAt: z.string(),
});
export type SellerSale = z.infer<typeof sellerSale>;

/**
 * A seller's sales figures, as the Dashboard's sales card and API v1's analytics give them. Amounts count paid sales
 * (refunded and lost disputes excluded), gross (before the platform fee), never test purchases (no money moved);
 * monthly: the current calendar month (UTC). totalCustomers: distinct buyers; totalPurchases: purchases (not renewals).
 */
export const sellerSalesFigures = z.object({
  totalSalesCents: z.number().int(),
  totalSalesFormatted: z.string(),
  monthlySalesCents: z.number().int(),
  monthlySalesFormatted: z.string(),
  totalCustomers: z.number().int(),
  totalPurchases: z.number().int(),
});

/** The seller's Dashboard sales card: the figures, and recentSales listing test purchases too, `test` true. */
export const sellerSalesSummary = sellerSalesFigures.extend({
  feesCents: z.number().int(),
  currency: z.string(),
  recentSales: z.array(sellerSale),
});
export type SellerSalesSummary = z.infer<typeof sellerSalesSummary>;

export const RECENT_TRANSACTIONS_LIMIT = 10;
export const NO_TRANSACTIONS_TEXT = 'No transactions yet';
export const BILLING_OFF_REVENUE_NOTE = 'Billing is off: no money has moved, test sales and plans are not counted';

export const recentTransaction = z.object({
  id: z.string(),
  kind: z.enum(['sale', 'invoice']),
  description: z.string(),
  amountCents: z.number().int(),
  /** The platform's part: the fee of a sale, the whole of a platform invoice. */
  feeCents: z.number().int(),
  currency: z.string(),
  createdAt: z.string(),
  test: z.boolean(),
});
export type RecentTransaction = z.infer<typeof recentTransaction>;

/**
 * The admin Overview's money (spec admin §3), added to GET /api/admin/stats.
 * - totalSales: paid sales (count), test sales included only while billing is off; grossSalesCents their sum.
 * - platformRevenue (dollars): fees actually collected on paid sales plus paid platform invoices; never list
 *   prices. feesCents and invoicesCents are its two parts.
 * - billingOff: no provider; revenueNote then says so (platformRevenue is 0).
 */
export const adminSalesFigures = z.object({
  totalSales: z.number().int(),
  grossSalesCents: z.number().int(),
  platformRevenue: z.number(),
  feesCents: z.number().int(),
  invoicesCents: z.number().int(),
  billingOff: z.boolean(),
  /** Fees of paid test sales (billing off): what the platform would have taken; never part of platformRevenue. */
  testFeesCents: z.number().int(),
  revenueNote: z.string().nullable(),
  recentTransactions: z.array(recentTransaction),
});
export type AdminSalesFigures = z.infer<typeof adminSalesFigures>;

/** Amount in cents as a currency string, e.g. 1999 usd -> "$19.99". */
export function formatCents(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}
