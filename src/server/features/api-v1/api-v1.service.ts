import type { z } from 'zod';
import type {
  ApiV1CreatePackageInput,
  ApiV1Customer,
  ApiV1Package,
  apiV1Analytics,
  apiV1RegeneratedToken,
  purchaseLinksInput,
  purchaseLinksSchema,
} from '../../../contract/api-v1.js';
import type { License } from '../../../contract/licenses.js';
import type { Package, UpdatePackageInput } from '../../../contract/packages.js';
import { setupCommands } from '../../../contract/setup-commands.js';
import type { AppContext } from '../../context.js';
import { decodeCursor } from '../../db/keyset-page.js';
import type { Principal } from '../../http/principal.js';
import { newestStable } from '../../lib/composer-versions/version-order.js';
import { getDashboardAnalytics, utcMonthBounds } from '../analytics/analytics.service.js';
import { repositoryUrlFor } from '../branding/branding.service.js';
import { distUrl } from '../composer/composer-metadata.service.js';
import { replaceHolderToken } from '../licenses/customers.service.js';
import { findHolderPage } from '../licenses/holder-pages.service.js';
import { listLicenses } from '../licenses/lasting-licenses.service.js';
import { getLicenseMailSeller } from '../licenses/license-mail.service.js';
import { createGitPackage } from '../packages/git-packages.service.js';
import { deletePackage, updatePackage } from '../packages/package-changes.service.js';
import { createPackage } from '../packages/package-create.service.js';
import { getPackageDetail, listPackagesForOwner, listPackageVersions } from '../packages/packages.service.js';
import { createPurchaseLinks, getPackagesPricing, type PackagePricing } from '../sales/purchase-links.service.js';
import { getSellerSalesTotals } from '../sales/sales-figures.service.js';

// The read models of API v1 (spec §3): packages with their pricing fields, customers by e-mail, analytics.
// Prices, purchase links and sales figures come from the sales domain's services (the Dashboard's figures).

export async function sellerRepositoryUrl(ctx: AppContext, sellerId: string): Promise<string> {
  const sender = await getLicenseMailSeller(ctx, sellerId);
  return repositoryUrlFor(ctx, { slug: sender.slug, brandDomain: sender.brand.verifiedDomain });
}

const NO_PRICING: PackagePricing = {
  pricingType: null,
  priceCents: null,
  currency: null,
  purchaseUrl: null,
  directPurchaseUrl: null,
  pricingTiers: [],
};

function presentPackage(
  pkg: Package,
  repositoryUrl: string,
  latestTag: string | undefined,
  pricing: PackagePricing | undefined,
): ApiV1Package {
  const prices = pricing ?? NO_PRICING;
  return {
    id: pkg.id,
    name: pkg.packageName,
    description: pkg.description,
    isActive: pkg.isActive,
    pricingType: prices.pricingType,
    priceCents: prices.priceCents,
    currency: prices.currency,
    downloadUrl: latestTag ? distUrl(repositoryUrl, pkg.packageName, latestTag) : null,
    purchaseUrl: prices.purchaseUrl,
    directPurchaseUrl: prices.directPurchaseUrl,
    pricingTiers: prices.pricingTiers,
    repository: pkg.fullName,
    latestVersion: latestTag ?? null,
    syncStatus: pkg.syncStatus,
    createdAt: pkg.createdAt,
    deployKey: pkg.deployKey,
    sshHostKeyFingerprint: pkg.sshHostKeyFingerprint,
  };
}

/**
 * The newest tag by its number (v1.10.0 after v1.2.0), stable before pre-release; without a stable tag, the most
 * recently released one. Release dates alone do not order tags: tags made on one day (or one commit) share a date,
 * and the list then falls back to ascending names, whose first is the oldest.
 */
function latestTagOf(versions: readonly { version: string; normalizedVersion: string; kind: string }[]) {
  const tags = versions.filter((version) => version.kind === 'tag');
  return (newestStable(tags) ?? tags[0])?.version;
}

async function findLatestTag(ctx: AppContext, packageId: string): Promise<string | undefined> {
  return latestTagOf(await listPackageVersions(ctx, packageId));
}

export async function listApiPackages(ctx: AppContext, sellerId: string): Promise<ApiV1Package[]> {
  const [owned, repositoryUrl] = await Promise.all([
    listPackagesForOwner(ctx, sellerId),
    sellerRepositoryUrl(ctx, sellerId),
  ]);
  const pricing = await getPackagesPricing(ctx, sellerId, owned);
  return Promise.all(
    owned.map(async (pkg) => presentPackage(pkg, repositoryUrl, await findLatestTag(ctx, pkg.id), pricing.get(pkg.id))),
  );
}

export async function getApiPackage(ctx: AppContext, sellerId: string, packageId: string): Promise<ApiV1Package> {
  const detail = await getPackageDetail(ctx, sellerId, packageId);
  const latestTag = latestTagOf(detail.versions);
  const pricing = await getPackagesPricing(ctx, sellerId, [detail]);
  return presentPackage(detail, await sellerRepositoryUrl(ctx, sellerId), latestTag, pricing.get(detail.id));
}

/** The links that sell a package (after the tenancy check: another seller's package is 404). */
export async function createApiPurchaseLinks(
  ctx: AppContext,
  sellerId: string,
  packageId: string,
  input: z.infer<typeof purchaseLinksInput>,
): Promise<z.infer<typeof purchaseLinksSchema>> {
  await getPackageDetail(ctx, sellerId, packageId);
  return createPurchaseLinks(ctx, sellerId, packageId, input);
}

function customerPackageStatus(license: License, now: Date): 'active' | 'expired' | 'revoked' {
  if (license.status === 'revoked') return 'revoked';
  if (license.expiresAt && new Date(license.expiresAt) <= now) return 'expired';
  return 'active';
}

const latest = (dates: (string | null)[]) =>
  dates
    .filter((date): date is string => date !== null)
    .sort()
    .at(-1) ?? null;

/**
 * One page of the license holders (those holding at least one license), newest first, each with every package they
 * hold, oldest first; with the cursor of the next page, null on the last.
 */
export async function listApiCustomers(
  ctx: AppContext,
  sellerId: string,
  page: { limit: number; cursor?: string },
): Promise<{ customers: ApiV1Customer[]; nextCursor: string | null }> {
  const now = ctx.clock.now();
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  const { holders, nextCursor } = await findHolderPage(ctx, sellerId, { limit: page.limit, after, licensedOnly: true });
  const customerIds = holders.map((holder) => holder.id);
  const byEmail = new Map<string, License[]>();
  for (const license of customerIds.length ? await listLicenses(ctx, sellerId, { customerIds }) : []) {
    const held = byEmail.get(license.email) ?? [];
    held.push(license);
    byEmail.set(license.email, held);
  }
  const customers = holders.map(({ id, email }) => {
    const packages = [...(byEmail.get(email) ?? [])].reverse().map((license) => ({
      packageName: license.packageName,
      packageId: license.packageId,
      status: customerPackageStatus(license, now),
      grantedAt: license.createdAt,
      expiresAt: license.expiresAt,
      lastUsedAt: license.lastUsedAt,
    }));
    return {
      id,
      email,
      packages,
      totalActivePackages: packages.filter((entry) => entry.status === 'active').length,
      firstPurchaseDate: packages.map((entry) => entry.grantedAt).sort()[0] ?? null,
      lastActiveDate: latest(packages.map((entry) => entry.lastUsedAt)),
    };
  });
  return { customers, nextCursor };
}

/** Spec §3 analytics; the period is all time, with the current calendar month (UTC) for the monthly figure. */
export async function getApiAnalytics(
  ctx: AppContext,
  sellerId: string,
): Promise<{ data: z.infer<typeof apiV1Analytics>; period: string; currency: string }> {
  const [dashboard, sales] = await Promise.all([
    getDashboardAnalytics(ctx, sellerId),
    getSellerSalesTotals(ctx, sellerId),
  ]);
  const month = utcMonthBounds(ctx.clock.now()).start.toISOString().slice(0, 7);
  return {
    data: {
      activePackages: dashboard.activePackages,
      totalSalesCents: sales.totalSalesCents,
      totalSalesFormatted: sales.totalSalesFormatted,
      monthlySalesCents: sales.monthlySalesCents,
      monthlySalesFormatted: sales.monthlySalesFormatted,
      totalCustomers: sales.totalCustomers,
      totalPurchases: sales.totalPurchases,
    },
    period: `all-time; monthly: ${month}`,
    currency: sales.currency,
  };
}

/** A new Composer token for the holder, e-mailed unless asked not to, and answered once to the shop. */
export async function regenerateHolderToken(
  ctx: AppContext,
  actor: Principal,
  input: { email: string; sendEmail?: boolean },
): Promise<z.infer<typeof apiV1RegeneratedToken>> {
  const sendEmail = input.sendEmail !== false;
  const replaced = await replaceHolderToken(ctx, actor, input.email, { notify: sendEmail });
  const sender = await getLicenseMailSeller(ctx, actor.sellerId);
  const repositoryUrl = repositoryUrlFor(ctx, { slug: sender.slug, brandDomain: sender.brand.verifiedDomain });
  const [firstPackage] = (await listLicenses(ctx, actor.sellerId, { email: replaced.email })).map(
    (license) => license.packageName,
  );
  return {
    email: replaced.email,
    tokenIssuedAt: replaced.tokenIssuedAt.toISOString(),
    emailSent: sendEmail,
    composerToken: replaced.token,
    repositoryUrl,
    setupCommands: firstPackage
      ? setupCommands({ repositoryUrl, sellerSlug: sender.slug, packageName: firstPackage, token: replaced.token })
      : [],
  };
}

/** Creates a package from one of the seller's code-host repositories, as the Add Package dialog does. */
export async function createApiPackage(
  ctx: AppContext,
  actor: Principal,
  input: ApiV1CreatePackageInput,
): Promise<ApiV1Package> {
  // The schema lets through exactly one of githubRepoId and repositoryUrl, and a name with githubRepoId.
  const created =
    input.repositoryUrl !== undefined
      ? await createGitPackage(ctx, actor, {
          repositoryUrl: input.repositoryUrl,
          credentials: input.credentials,
          packageName: input.packageName,
          description: input.description ?? null,
          isActive: input.isActive ?? true,
        })
      : await createPackage(ctx, actor, {
          githubRepoId: String(input.githubRepoId),
          // A repository of one of the seller's connections (GitLab, Bitbucket, the GitHub App, ...).
          connectionId: input.connectionId,
          packageName: input.packageName!,
          description: input.description ?? null,
          isActive: input.isActive ?? true,
        });
  return presentPackage(created, await sellerRepositoryUrl(ctx, actor.sellerId), undefined, undefined);
}

export async function updateApiPackage(
  ctx: AppContext,
  actor: Principal,
  packageId: string,
  input: UpdatePackageInput,
): Promise<ApiV1Package> {
  await updatePackage(ctx, actor, packageId, input);
  return getApiPackage(ctx, actor.sellerId, packageId);
}

/** Deletes the package with its versions and every license of it. */
export async function deleteApiPackage(ctx: AppContext, actor: Principal, packageId: string): Promise<void> {
  await deletePackage(ctx, actor, packageId);
}
