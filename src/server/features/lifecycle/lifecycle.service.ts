import { randomBytes } from 'node:crypto';
import type {
  AbandonPackageInput,
  Advisory,
  CreateAdvisoryInput,
  PackageLifecycle,
} from '../../../contract/lifecycle.js';
import { abandonPackageInput, createAdvisoryInput, yankVersionInput } from '../../../contract/lifecycle.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import {
  InvalidConstraintError,
  matchesConstraint,
  parseConstraints,
} from '../../lib/composer-versions/version-constraints.js';
import { InvalidVersionError, normalizeVersion } from '../../lib/composer-versions/version-parser.js';
import { getLicenseMailSeller, sendHolderNotice } from '../licenses/holder-notice.service.js';
import { getOwnedPackage } from '../packages/packages.service.js';
import type { AdvisoryRow } from './lifecycle.repository.js';
import * as repository from './lifecycle.repository.js';

// A package's life after release, as the seller steers it (issue 13): security advisories, abandonment and yanked
// versions. The Composer repository serves all three from the lifecycle tables (features/composer); every change
// here also moves the package's metadata Last-Modified, so that a holder's Composer, which revalidates its cached
// p2 file with If-Modified-Since, reads the change on its next run instead of a 304.

export const ADVISORY_NOTICE_JOB = 'advisory-notices';
export const ADVISORY_NOTICE_MAX_ATTEMPTS = 5;

/**
 * The metadata's Last-Modified moves to now, and at least one whole second past what any holder was last served
 * (a holder's Last-Modified is the later of the package's metadata time and their grant's): HTTP dates have
 * seconds, and a change in the same second as the last fetch would otherwise answer that fetch's 304.
 */
function touchMetadata(
  db: Parameters<typeof repository.touchPackageMetadata>[0],
  ctx: Pick<AppContext, 'clock'>,
  packageId: string,
): Promise<void> {
  return repository.touchPackageMetadata(db, packageId, ctx.clock.now());
}

type OwnedPackage = Awaited<ReturnType<typeof getOwnedPackage>>;

/**
 * Makes one change to the lifecycle of the seller's package in a transaction, moves the package's metadata time
 * when the change did something (`change` answers whether it did), and answers the dialog's new state.
 */
async function changeLifecycle(
  ctx: AppContext,
  ownerId: string,
  packageId: string,
  change: (tx: Database, pkg: OwnedPackage) => Promise<boolean>,
): Promise<PackageLifecycle> {
  const pkg = await getOwnedPackage(ctx, ownerId, packageId);
  await ctx.db.transaction(async (tx) => {
    if (await change(tx, pkg)) await touchMetadata(tx, ctx, pkg.id);
  });
  return getLifecycle(ctx, ownerId, packageId);
}

function presentAdvisory(row: AdvisoryRow, notifiedHolders: number): Advisory {
  return {
    id: row.id,
    advisoryId: row.advisoryKey,
    title: row.title,
    affectedVersions: row.affectedVersions,
    severity: row.severity,
    cve: row.cve,
    link: row.link,
    reportedAt: row.reportedAt.toISOString(),
    withdrawnAt: row.withdrawnAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    notifiedHolders,
  };
}

/** Everything the seller's lifecycle dialog shows of one of their packages. */
export async function getLifecycle(ctx: AppContext, ownerId: string, packageId: string): Promise<PackageLifecycle> {
  const pkg = await getOwnedPackage(ctx, ownerId, packageId);
  const abandonment = await repository.findAbandonment(ctx.db, pkg.id);
  const advisories = await repository.selectAdvisoriesWithNoticeCounts(ctx.db, pkg.id);
  const versions = await repository.selectTagsWithYanks(ctx.db, pkg.id);
  return {
    packageId: pkg.id,
    packageName: pkg.name,
    abandoned: abandonment
      ? { replacement: abandonment.replacement, abandonedAt: abandonment.abandonedAt.toISOString() }
      : null,
    advisories: advisories.map((row) => presentAdvisory(row.advisory, Number(row.notified))),
    versions: versions.map(({ version, yank }) => ({
      version: version.version,
      kind: version.kind,
      releasedAt: version.releasedAt.toISOString(),
      yank: yank ? { reason: yank.reason, yankedAt: yank.yankedAt.toISOString() } : null,
    })),
  };
}

/** The constraint as Composer will read it, or a 400 in the spec's error shape saying why not. */
export function checkAffectedVersions(text: string): string {
  const trimmed = text.trim();
  try {
    parseConstraints(trimmed);
  } catch (error) {
    if (!(error instanceof InvalidConstraintError)) throw error;
    throw new AppError('VALIDATION_FAILED', `Affected versions: ${error.message}.`, {
      title: 'Invalid Version Constraint',
      suggestion: 'Write a Composer constraint, e.g. >=1.0,<1.4.2 or <2.3.1|>=3.0,<3.0.4.',
    });
  }
  return trimmed;
}

/** Publishes an advisory on the seller's package; holders with an affected version installed are e-mailed once. */
export async function publishAdvisory(
  ctx: AppContext,
  ownerId: string,
  packageId: string,
  input: CreateAdvisoryInput,
): Promise<Advisory> {
  const values = createAdvisoryInput.parse(input);
  const pkg = await getOwnedPackage(ctx, ownerId, packageId);
  const affectedVersions = checkAffectedVersions(values.affectedVersions);
  const now = ctx.clock.now();
  const reportedAt = values.reportedAt ? new Date(`${values.reportedAt}T00:00:00Z`) : now;
  const created = await ctx.db.transaction(async (tx) => {
    const row = await repository.insertAdvisory(tx, {
      packageId: pkg.id,
      advisoryKey: `PKGT-${randomBytes(8).toString('hex').toUpperCase()}`,
      title: values.title,
      affectedVersions,
      severity: values.severity,
      cve: values.cve ?? null,
      link: values.link ?? null,
      reportedAt,
      createdAt: now,
    });
    await touchMetadata(tx, ctx, pkg.id);
    await ctx.jobs.enqueue(ADVISORY_NOTICE_JOB, { advisoryId: row.id }, { db: tx, reference: `advisory:${row.id}` });
    return row;
  });
  ctx.jobs.wake();
  return presentAdvisory(created, 0);
}

/** Withdraws an advisory: Composer stops listing it on the holders' next run. */
export async function withdrawAdvisory(
  ctx: AppContext,
  ownerId: string,
  packageId: string,
  advisoryId: string,
): Promise<PackageLifecycle> {
  return changeLifecycle(ctx, ownerId, packageId, async (tx, pkg) => {
    const row = await repository.findAdvisoryByKey(tx, pkg.id, advisoryId);
    if (!row) throw new AppError('NOT_FOUND', 'Advisory not found');
    if (row.withdrawnAt) return false;
    await repository.markAdvisoryWithdrawn(tx, row.id, ctx.clock.now());
    return true;
  });
}

/** Marks the package abandoned (Composer warns whoever has it installed), optionally naming its replacement. */
export async function abandonPackage(
  ctx: AppContext,
  ownerId: string,
  packageId: string,
  input: AbandonPackageInput,
): Promise<PackageLifecycle> {
  const { replacement } = abandonPackageInput.parse(input);
  return changeLifecycle(ctx, ownerId, packageId, async (tx, pkg) => {
    if (replacement && replacement === pkg.name) {
      throw new AppError('VALIDATION_FAILED', 'A package cannot be its own replacement.', {
        suggestion: 'Name the package holders should move to, or leave the replacement empty.',
      });
    }
    await repository.upsertAbandonment(tx, pkg.id, replacement ?? null, ctx.clock.now());
    return true;
  });
}

/** Takes the abandoned mark back. */
export async function reviveAbandonedPackage(
  ctx: AppContext,
  ownerId: string,
  packageId: string,
): Promise<PackageLifecycle> {
  return changeLifecycle(ctx, ownerId, packageId, (tx, pkg) => repository.deleteAbandonment(tx, pkg.id));
}

async function getTagVersion(db: Database, packageId: string, version: string) {
  const row = await repository.findVersionKind(db, packageId, version);
  if (!row) throw new AppError('NOT_FOUND', `Version ${version} not found`);
  if (row.kind !== 'tag') {
    throw new AppError('VALIDATION_FAILED', `${version} is a branch: only released versions (tags) can be yanked.`, {
      suggestion: 'Yank a tagged version, or remove the branch from the repository.',
    });
  }
  return row;
}

/**
 * Yanks a released version: it leaves the metadata (no new install or update resolves to it) and Composer tells
 * holders why; its zip stays downloadable for lock files that already name it.
 */
export async function yankVersion(
  ctx: AppContext,
  ownerId: string,
  packageId: string,
  version: string,
  input: { reason: string },
): Promise<PackageLifecycle> {
  const { reason } = yankVersionInput.parse(input);
  return changeLifecycle(ctx, ownerId, packageId, async (tx, pkg) => {
    const row = await getTagVersion(tx, pkg.id, version);
    await repository.upsertYank(tx, pkg.id, row.version, reason, ctx.clock.now());
    return true;
  });
}

/** Puts a yanked version back into the metadata. */
export async function unyankVersion(
  ctx: AppContext,
  ownerId: string,
  packageId: string,
  version: string,
): Promise<PackageLifecycle> {
  return changeLifecycle(ctx, ownerId, packageId, async (tx, pkg) => {
    if (!(await repository.deleteYank(tx, pkg.id, version))) {
      throw new AppError('NOT_FOUND', `Version ${version} is not yanked`);
    }
    return true;
  });
}

function normalizedOrUndefined(version: string): string | undefined {
  try {
    return normalizeVersion(version);
  } catch (error) {
    if (error instanceof InvalidVersionError) return undefined;
    throw error;
  }
}

/**
 * E-mails each holder whose latest download of the package is a version the advisory affects, once per advisory
 * and holder (a notice row is taken first, so a retried job never mails twice). Revoked licenses are left out.
 */
export async function sendAdvisoryNotices(ctx: AppContext, advisoryId: string): Promise<number> {
  const found = await repository.findLiveAdvisoryWithPackage(ctx.db, advisoryId);
  if (!found) return 0;
  const { advisory, pkg } = found;
  const constraint = parseConstraints(advisory.affectedVersions);
  const installed = await repository.selectInstalledVersionsOfPackage(ctx.db, pkg.id);
  const affected = installed.filter((holder) => {
    const normalized = holder.normalizedVersion ?? normalizedOrUndefined(holder.version);
    return normalized !== undefined && matchesConstraint(constraint, normalized);
  });
  if (affected.length === 0) return 0;
  const sender = await getLicenseMailSeller(ctx, pkg.ownerId);
  let sent = 0;
  for (const holder of affected) {
    if (!(await repository.claimAdvisoryNotice(ctx.db, advisory.id, holder.customerId, holder.version))) continue;
    await sendHolderNotice(ctx, sender, holder.email, advisoryNotice(advisory, pkg.name, holder.version), {
      reference: `advisory:${advisory.id}:${holder.customerId}`,
    });
    sent++;
  }
  return sent;
}

/** The e-mail's words: what is affected, how bad, where to read more, and the command that shows it. */
export function advisoryNotice(
  advisory: Pick<AdvisoryRow, 'title' | 'affectedVersions' | 'severity' | 'cve' | 'link' | 'advisoryKey'>,
  packageName: string,
  installedVersion: string,
): { subject: string; parts: ({ paragraph: string } | { commands: string[] })[] } {
  return {
    subject: `Security advisory for ${packageName}: ${advisory.title}`,
    parts: [
      {
        paragraph: `A security advisory was published for ${packageName}, and the version you last installed (${installedVersion}) is affected.`,
      },
      {
        paragraph: [
          `Advisory: ${advisory.title}`,
          `Severity: ${advisory.severity}`,
          `Affected versions: ${advisory.affectedVersions}`,
          ...(advisory.cve ? [`CVE: ${advisory.cve}`] : []),
          ...(advisory.link ? [`Details: ${advisory.link}`] : []),
          `Advisory id: ${advisory.advisoryKey}`,
        ].join('\n'),
      },
      { paragraph: 'Update to a version the advisory does not affect, then check your project:' },
      { commands: [`composer update ${packageName}`, 'composer audit'] },
    ],
  };
}
