import {
  type BillingInterval,
  DEFAULT_CURRENCY,
  formatCents,
  MAX_PRICE_CENTS,
  MAX_PRICES_PER_PACKAGE,
  MAX_TRIAL_DAYS,
  MAX_UPDATE_MONTHS,
  MIN_PRICE_CENTS,
  type PackagePrice,
  type PackagePriceInput,
  type PricingType,
  type PurchasePagePrice,
  salesMessages,
} from '../../../contract/sales';
import { centsToPrice, priceToCents } from '../../lib/price-text';

export { formatCents };

/** One tier as the Pricing dialog edits it: numbers as typed, so a half-typed price is not lost. */
export type PriceForm = {
  /** Stable React key; the server id once saved. */
  key: string;
  id?: string;
  name: string;
  description: string;
  pricingType: PricingType;
  interval: BillingInterval;
  /** Whole months of updates a one-time purchase includes. */
  updateMonths: string;
  /** Free days before a subscription's first charge; empty means none. */
  trialDays: string;
  /** A Composer constraint (`^2.0`) the license sold with this tier covers; empty means every version. */
  versionConstraint: string;
  /** In the currency's main unit, e.g. "49.00". */
  price: string;
  currency: string;
  isActive: boolean;
  salesCount: number;
};

export type PriceProblems = Partial<
  Record<'name' | 'price' | 'updateMonths' | 'trialDays' | 'currency' | 'versionConstraint', string>
>;

export const DEFAULT_UPDATE_MONTHS = 12;

let keys = 0;
const nextKey = () => `new-${Date.now()}-${++keys}`;

/** A new tier: the first is a one-time purchase with a year of updates, later ones follow the first's currency. */
export function newPriceForm(existing: readonly PriceForm[]): PriceForm {
  return {
    key: nextKey(),
    name: existing.length === 0 ? 'Lifetime' : `Tier ${existing.length + 1}`,
    description: '',
    pricingType: 'one_time',
    interval: 'month',
    updateMonths: String(DEFAULT_UPDATE_MONTHS),
    trialDays: '',
    versionConstraint: '',
    price: '49.00',
    currency: existing[0]?.currency ?? DEFAULT_CURRENCY,
    isActive: true,
    salesCount: 0,
  };
}

export function priceFormOf(tier: PackagePrice): PriceForm {
  return {
    key: tier.id,
    id: tier.id,
    name: tier.name,
    description: tier.description ?? '',
    pricingType: tier.pricingType,
    interval: tier.interval ?? 'month',
    updateMonths: String(tier.updateMonths ?? DEFAULT_UPDATE_MONTHS),
    trialDays: tier.trialDays ? String(tier.trialDays) : '',
    versionConstraint: tier.versionConstraint ?? '',
    price: centsToPrice(tier.priceCents),
    currency: tier.currency,
    isActive: tier.isActive,
    salesCount: tier.salesCount,
  };
}

const wholeNumber = (text: string): number | undefined => (/^\d{1,6}$/.test(text.trim()) ? Number(text) : undefined);

/** The problems of one tier, worded as the server words them (salesMessages), so both sides agree. */
export function priceProblems(tier: PriceForm, firstCurrency: string | undefined): PriceProblems {
  const problems: PriceProblems = {};
  if (!tier.name.trim()) problems.name = salesMessages.nameRequired;
  const cents = priceToCents(tier.price);
  if (cents === undefined || cents < MIN_PRICE_CENTS || cents > MAX_PRICE_CENTS) {
    problems.price = `The price must be from ${formatCents(MIN_PRICE_CENTS, tier.currency)} to ${formatCents(MAX_PRICE_CENTS, tier.currency)}`;
  }
  if (firstCurrency && tier.currency !== firstCurrency) problems.currency = salesMessages.currencyMismatch;
  if (tier.pricingType === 'one_time') {
    const months = wholeNumber(tier.updateMonths);
    if (months === undefined || months < 1 || months > MAX_UPDATE_MONTHS) {
      problems.updateMonths = salesMessages.updateMonthsInvalid;
    }
  } else if (tier.trialDays.trim()) {
    const days = wholeNumber(tier.trialDays);
    if (days === undefined || days > MAX_TRIAL_DAYS) problems.trialDays = salesMessages.trialDaysInvalid;
  }
  return problems;
}

/** Problems per tier key. */
export type PricingProblems = Record<string, PriceProblems>;

/** Problems per tier key; empty when every tier can be saved. */
export function pricingProblems(tiers: readonly PriceForm[]): PricingProblems {
  const firstCurrency = tiers[0]?.currency;
  const all: PricingProblems = {};
  for (const tier of tiers) {
    const problems = priceProblems(tier, firstCurrency);
    if (Object.keys(problems).length > 0) all[tier.key] = problems;
  }
  return all;
}

export const canAddTier = (tiers: readonly PriceForm[]) => tiers.length < MAX_PRICES_PER_PACKAGE;

/** What PUT /api/repositories/{id}/pricing-tiers takes; call only when pricingProblems is empty. */
export function priceInputOf(tier: PriceForm): PackagePriceInput {
  const oneTime = tier.pricingType === 'one_time';
  const trialDays = wholeNumber(tier.trialDays);
  return {
    ...(tier.id ? { id: tier.id } : {}),
    name: tier.name.trim(),
    description: tier.description.trim() || null,
    pricingType: tier.pricingType,
    interval: oneTime ? null : tier.interval,
    updateMonths: oneTime ? (wholeNumber(tier.updateMonths) ?? null) : null,
    trialDays: oneTime || !trialDays ? null : trialDays,
    versionConstraint: tier.versionConstraint.trim() || null,
    priceCents: priceToCents(tier.price) ?? 0,
    currency: tier.currency,
    isActive: tier.isActive,
  };
}

type PriceTerms = Pick<
  PurchasePagePrice,
  'pricingType' | 'interval' | 'updateMonths' | 'trialDays' | 'priceCents' | 'currency'
>;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "$49.00" for a one-time price, "$9.00 / month" or "$90.00 / year" for a subscription. */
export function priceText(tier: PriceTerms): string {
  const amount = formatCents(tier.priceCents, tier.currency);
  if (tier.pricingType === 'one_time') return amount;
  return `${amount} / ${tier.interval === 'year' ? 'year' : 'month'}`;
}

/**
 * What the buyer gets, in a line: "One-time payment · 12 months of updates" or "Billed monthly · 14-day free trial".
 */
export function termsText(tier: PriceTerms): string {
  if (tier.pricingType === 'one_time') {
    return `One-time payment · ${plural(tier.updateMonths ?? 0, 'month', 'months')} of updates`;
  }
  const billed = tier.interval === 'year' ? 'Billed yearly' : 'Billed monthly';
  return tier.trialDays ? `${billed} · ${tier.trialDays}-day free trial` : billed;
}

/** "Versions ^2.0" for a tier sold for a version range (issue 31); undefined when it covers every version. */
export function versionsText(tier: Pick<PurchasePagePrice, 'versionConstraint'>): string | undefined {
  return tier.versionConstraint ? `Versions ${tier.versionConstraint}` : undefined;
}

/**
 * The server checks a constraint with Composer's parser and names `versionConstraint` when it refuses one; the
 * answer does not say which tier, so it goes under every tier that has a range.
 */
export function versionProblemsOf(message: string, tiers: readonly PriceForm[]): PricingProblems {
  if (!message.includes('versionConstraint')) return {};
  const found: PricingProblems = {};
  for (const tier of tiers) if (tier.versionConstraint.trim()) found[tier.key] = { versionConstraint: message };
  return found;
}

/** The longer explanation under a tier on the purchase page. */
export function accessText(tier: PriceTerms & Partial<Pick<PurchasePagePrice, 'versionConstraint'>>): string {
  const range = tier.versionConstraint;
  if (tier.pricingType === 'one_time') {
    const months = plural(tier.updateMonths ?? 0, 'month', 'months');
    // A range and a period together (issue 31): the buyer gets the versions in the range that are released within
    // the period, which "every version released in the next N months" beside "Versions ^2.0" contradicted.
    if (range) {
      return `Install every ${range} version released in the next ${months}, and keep them for good. Versions outside ${range} are not included.`;
    }
    return `Install every version released in the next ${months}, and keep them for good.`;
  }
  if (range) {
    return `Install every ${range} version while your subscription lasts; cancel at any time. Versions outside ${range} are not included.`;
  }
  return 'Install every version while your subscription lasts; cancel at any time.';
}

export const pricingTypeLabels: Record<PricingType, string> = {
  one_time: 'One-time purchase',
  subscription: 'Subscription',
};

export const intervalLabels: Record<BillingInterval, string> = { month: 'Monthly', year: 'Yearly' };

/** The buyer's e-mail on the purchase page, worded as the server words it; undefined when it will do. */
export function buyerEmailProblem(email: string): string | undefined {
  const trimmed = email.trim();
  if (!trimmed) return salesMessages.emailRequired;
  const at = trimmed.indexOf('@');
  const domain = trimmed.slice(at + 1);
  const valid =
    trimmed.length <= 320 &&
    at > 0 &&
    !domain.includes('@') &&
    domain.includes('.') &&
    !domain.startsWith('.') &&
    !domain.endsWith('.') &&
    !/\s/.test(trimmed);
  return valid ? undefined : salesMessages.emailInvalid;
}

export type SetupStep = { title: string; commands: string[] };

/**
 * The server's setup commands as the three steps a buyer follows: add the repository (with `secure-http false` on
 * plain http), set the token, require the package. Lines of no known step go to the first.
 */
export function setupSteps(commands: readonly string[]): SetupStep[] {
  const token = commands.filter((line) => line.startsWith('composer config bearer.'));
  const require = commands.filter((line) => line.startsWith('composer require'));
  const repository = commands.filter((line) => !token.includes(line) && !require.includes(line));
  return [
    { title: 'Add the repository', commands: repository },
    { title: 'Set your access token', commands: token },
    { title: 'Require the package', commands: require },
  ].filter((step) => step.commands.length > 0);
}
