import { isEntityId } from '../../../contract/ids.js';
import {
  type IssuedLicense,
  type IssueLicenseInput,
  type License,
  licenseTargetMessages,
} from '../../../contract/licenses.js';
import { setupCommands, TOKEN_PLACEHOLDER } from '../../../contract/setup-commands.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { withEmailDelivery } from '../../jobs/mail-delivery.js';
import { repositoryUrlFor } from '../branding/branding.service.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { type PlanAccount, requireActiveAccess } from '../subscriptions/subscriptions.service.js';
import {
  assertRoomForHolder,
  type CreateGrantInput,
  type CreateGrantResult,
  createGrantIn,
  type GrantTarget,
  grantAuditDetails,
  loadGrantTarget,
} from './grant-issuing.service.js';
import { parseHolderEmail } from './grants.service.js';
import { describeGrantCoverage, hasCoverageTerms } from './license-coverage-words.js';
import { getLicenseMailSeller, type LicenseMailSeller, sendLicenseEmail } from './license-mail.service.js';
import { parseLicenseTermsInput, presentLicense } from './license-terms-input.js';
import { selectOwnedPackageNames } from './licenses.repository.js';
import { findHolderLimit } from './licenses.service.js';

// Lasting licenses given in one call (issue 31): one package, several packages (one license each), or a product (one
// license covering its packages). Every license is written in ONE transaction (a bad id writes nothing) and the holder
// gets ONE e-mail listing every package, with the setup commands once. Each license keeps its own webhook event and
// audit event, as when issued one by one.

export type LicenseTargets = { packageId?: string; packageIds?: string[]; productId?: string };

/** The targets, checked and loaded before any write: exactly one kind; packageIds each the seller's, none twice. */
export async function loadLicenseTargets(
  ctx: AppContext,
  sellerId: string,
  input: LicenseTargets,
): Promise<GrantTarget[]> {
  const given = [input.packageId, input.packageIds, input.productId].filter((value) => value !== undefined);
  if (given.length !== 1) throw new AppError('VALIDATION_FAILED', licenseTargetMessages.oneTarget);
  if (input.productId !== undefined) return [await loadGrantTarget(ctx, sellerId, { productId: input.productId })];
  if (input.packageId !== undefined) return [await loadGrantTarget(ctx, sellerId, input.packageId)];
  const ids = input.packageIds ?? [];
  if (ids.length === 0) throw new AppError('VALIDATION_FAILED', licenseTargetMessages.packagesEmpty);
  if (new Set(ids).size !== ids.length) throw new AppError('VALIDATION_FAILED', licenseTargetMessages.packageTwice);
  if (!ids.every(isEntityId)) throw new AppError('VALIDATION_FAILED', licenseTargetMessages.packageUnknown);
  const owned = await selectOwnedPackageNames(ctx.db, sellerId, ids);
  if (owned.length !== ids.length) throw new AppError('VALIDATION_FAILED', licenseTargetMessages.packageUnknown);
  const byId = new Map(owned.map((pkg) => [pkg.id, pkg]));
  return ids.map((id) => {
    const pkg = byId.get(id)!;
    return { packageId: pkg.id, productId: null, name: pkg.name, packageNames: [pkg.name] };
  });
}

/**
 * Issues lasting licenses (or gives the holder's existing licenses these terms) for every target in one transaction,
 * e-mails the holder once unless `sendEmail` is false, and answers what the holder needs.
 */
export async function issueLicenses(
  ctx: AppContext,
  seller: PlanAccount,
  actor: Principal,
  targetsInput: LicenseTargets,
  input: IssueLicenseInput,
): Promise<IssuedLicense> {
  const targets = await loadLicenseTargets(ctx, seller.id, targetsInput);
  const email = parseHolderEmail(input.email);
  const now = ctx.clock.now();
  const terms = parseLicenseTermsInput(input, now);
  await requireActiveAccess(ctx, seller);
  const holderLimit = await findHolderLimit(ctx, seller);
  if (holderLimit) await assertRoomForHolder(ctx.db, seller.id, email, holderLimit);
  const sender = await getLicenseMailSeller(ctx, seller.id);
  const sendEmail = input.sendEmail !== false;
  const grantInput: CreateGrantInput = {
    email,
    kind: 'manual',
    expiresAt: terms.expiresAt ?? null,
    endMode: terms.endMode ?? 'access',
    downloadLimit: terms.downloadLimit ?? null,
    note: terms.note ?? null,
    versionConstraint: terms.versionConstraint,
    minimumStability: terms.minimumStability,
    seats: terms.seats,
    holderLimit,
  };

  const results = await ctx.db.transaction(async (tx) => {
    const written: CreateGrantResult[] = [];
    for (const target of targets) {
      const result = await createGrantIn(ctx, tx, { seller: sender, target }, grantInput);
      await recordAuditEvent(tx, ctx, actor, {
        action: result.outcome === 'created' ? 'license.created' : 'license.renewed',
        targetType: 'license',
        targetId: result.grant.id,
        details: grantAuditDetails(result.grant, result.customer.email, target.name, { emailSent: sendEmail }),
      });
      written.push(result);
    }
    if (sendEmail) await sendBatchEmail(ctx, tx, sender, written, grantInput);
    return written;
  });

  const first = results[0]!;
  const token = first.composerToken;
  const repositoryUrl = repositoryUrlFor(ctx, { slug: sender.slug, brandDomain: sender.brand.verifiedDomain });
  const licenses: License[] = await withEmailDelivery(
    ctx.db,
    results.map((result) =>
      presentLicense({ grant: result.grant, email: result.customer.email, packageName: result.target.name }, now),
    ),
  );
  return {
    license: licenses[0]!,
    licenses,
    outcome: results.some((result) => result.outcome === 'created') ? 'created' : 'renewed',
    emailSent: sendEmail,
    repositoryUrl,
    composerToken: token ?? null,
    setupCommands: setupCommands({
      repositoryUrl,
      sellerSlug: sender.slug,
      packageName: packageNamesOf(results).join(' '),
      token: token ?? TOKEN_PLACEHOLDER,
    }),
  };
}

const packageNamesOf = (results: CreateGrantResult[]) => [
  ...new Set(results.flatMap((result) => result.target.packageNames)),
];

/** The one e-mail of a batch: every package, what each license covers when it says more than a name. */
async function sendBatchEmail(
  ctx: AppContext,
  tx: Database,
  sender: LicenseMailSeller,
  results: CreateGrantResult[],
  input: CreateGrantInput,
): Promise<void> {
  const first = results[0]!;
  const reason = first.isNewCustomer
    ? 'new-holder'
    : results.some((result) => result.outcome === 'created')
      ? 'package-added'
      : 'license-renewed';
  const worthSaying = results.some((result) => hasCoverageTerms(result.grant)) || results.length > 1;
  await sendLicenseEmail(
    ctx,
    sender,
    first.customer.email,
    {
      reason,
      token: first.composerToken,
      packageNames: packageNamesOf(results),
      coverage: worthSaying ? results.map((result) => describeGrantCoverage(result.grant, result.target)) : undefined,
      license: { kind: first.grant.kind, expiresAt: first.grant.expiresAt, endMode: first.grant.endMode },
      isTestPurchase: input.isTestPurchase,
    },
    { grantId: first.grant.id, db: tx },
  );
}
