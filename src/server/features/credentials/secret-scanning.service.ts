import { verify } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { systemPrincipal } from '../../http/principal.js';
import { HOUR_MS } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { isWellFormedHolderToken } from '../../lib/holder-token-format.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { getUserById } from '../users/users.service.js';
import type { HolderTokenRow } from './holder-token-issue.js';
import { findHolderTokenWithHolderByHash, updateHolderToken } from './holder-tokens.repository.js';
import type { SecretScanningKeys } from './secret-scanning-keys.js';

// GitHub's secret scanning partner program (issue 32 item 4): GitHub finds a `pgc_` token in public code, an issue or
// a gist and posts it here, signed. A token of ours is revoked at once, or, when its seller chose `mark`, marked leaked
// and kept working for 24 hours while the holder replaces it; the holder and the seller are told where it was found.
// The answer labels each report without repeating the token (GitHub accepts its SHA-256 in place of it).

export const SECRET_SCANNING_PATH = '/api/secret-scanning/github';
const MAX_REPORTS = 1000;
const MAX_TOKEN_LENGTH = 200;
const MAX_URL_LENGTH = 2000;
const MARKED_LEAK_KEEPS_MS = 24 * HOUR_MS;

export type SecretScanningLabel = { token_hash: string; token_type: string; label: 'true_positive' | 'false_positive' };
type Report = { token: string; type: string; url: string | null; source: string | null };

const text = (value: unknown, max: number) => (typeof value === 'string' && value.length <= max ? value : null);

/** The signature must be GitHub's, over the exact bytes received, by a P-256 key it publishes. */
export async function verifySecretScanningSignature(
  keys: SecretScanningKeys,
  rawBody: Buffer,
  keyIdentifier: string | undefined,
  signature: string | undefined,
): Promise<void> {
  const refuse = () =>
    new AppError('UNAUTHENTICATED', 'The report is not signed by a key GitHub publishes for secret scanning.', {
      suggestion: 'Send Github-Public-Key-Identifier and Github-Public-Key-Signature (ECDSA P-256, SHA-256).',
    });
  if (!keyIdentifier || !signature || keyIdentifier.length > 200 || signature.length > 400) throw refuse();
  const key = await keys.find(keyIdentifier);
  if (!key) throw refuse();
  let isValid = false;
  try {
    isValid = verify('sha256', rawBody, key, Buffer.from(signature, 'base64'));
  } catch {
    isValid = false;
  }
  if (!isValid) throw refuse();
}

function parseReports(rawBody: Buffer): Report[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new AppError('BAD_REQUEST', 'The report is not JSON: send an array of {token, type, url, source}.');
  }
  if (!Array.isArray(parsed) || parsed.length > MAX_REPORTS) {
    throw new AppError('BAD_REQUEST', `The report must be an array of at most ${MAX_REPORTS} matches.`);
  }
  return parsed.flatMap((entry: Record<string, unknown> | null) => {
    const token = text(entry?.token, MAX_TOKEN_LENGTH);
    if (token === null) return [];
    const url = text(entry?.url, MAX_URL_LENGTH);
    return [
      {
        token,
        type: text(entry?.type, 200) ?? '',
        url: url && /^https?:\/\//.test(url) ? url : null,
        source: text(entry?.source, 100),
      },
    ];
  });
}

/** Revokes or marks each reported token of ours, tells the holder and the seller, and labels every report. */
export async function receiveSecretScanningReport(ctx: AppContext, rawBody: Buffer): Promise<SecretScanningLabel[]> {
  const labels: SecretScanningLabel[] = [];
  for (const report of parseReports(rawBody)) {
    const isOurs = isWellFormedHolderToken(report.token) && (await handleLeak(ctx, report));
    labels.push({
      token_hash: sha256Hex(report.token),
      token_type: report.type,
      label: isOurs ? 'true_positive' : 'false_positive',
    });
  }
  return labels;
}

async function handleLeak(ctx: AppContext, report: Report): Promise<boolean> {
  const found = await findHolderTokenWithHolderByHash(ctx.db, sha256Hex(report.token));
  if (!found) return false;
  if (found.token.revokedAt) return true; // already dealt with: nothing more to write or tell
  const seller = await getUserById(ctx, found.sellerId);
  const now = ctx.clock.now();
  const action = seller.leakedTokenAction === 'mark' ? 'mark' : 'revoke';
  const keptUntil = new Date(now.getTime() + MARKED_LEAK_KEEPS_MS);
  const current = found.token.expiresAt;
  const changes =
    action === 'revoke'
      ? { revokedAt: now, leakedAt: now, leakUrl: report.url }
      : { leakedAt: now, leakUrl: report.url, expiresAt: current && current < keptUntil ? current : keptUntil };
  // The seller reads what GitHub's report did in their audit trail, written with the change (no member acted).
  await ctx.db.transaction(async (tx) => {
    await updateHolderToken(tx, found.token.id, changes);
    await recordAuditEvent(tx, ctx, systemPrincipal(found.sellerId), {
      action: action === 'revoke' ? 'customer.token_leak_revoked' : 'customer.token_leak_marked',
      targetType: 'customer',
      targetId: found.token.customerId,
      details: {
        email: found.email,
        tokenId: found.token.id,
        name: found.token.name,
        reportedBy: 'github_secret_scanning',
        url: report.url,
        ...(action === 'mark' ? { keptUntil: (changes.expiresAt ?? keptUntil).toISOString() } : {}),
      },
    });
  });
  const sellerName = seller.displayName?.trim() || seller.slug;
  const stopsAt = action === 'revoke' ? now : (changes.expiresAt ?? keptUntil);
  await tellAboutLeak(ctx, found.token, {
    holderEmail: found.email,
    sellerEmail: seller.email,
    sellerName,
    stopsAt,
    report,
    action,
  });
  return true;
}

async function tellAboutLeak(
  ctx: AppContext,
  token: HolderTokenRow,
  facts: {
    holderEmail: string;
    sellerEmail: string | null;
    sellerName: string;
    stopsAt: Date;
    report: Report;
    action: 'revoke' | 'mark';
  },
): Promise<void> {
  const where = facts.report.url ?? `a public ${facts.report.source ?? 'place'} on GitHub`;
  const which = `"${token.name}" (${token.kind}, ending in ${token.tokenHint ?? '…'})`;
  const fate =
    facts.action === 'revoke'
      ? 'It has been revoked and no longer works.'
      : `It keeps working until ${facts.stopsAt.toISOString()} and then stops.`;
  await ctx.mailer.send({
    to: facts.holderEmail,
    subject: `Your Composer token for ${facts.sellerName} was found in public`,
    text: [
      `GitHub's secret scanning found your Composer token ${which} for ${facts.sellerName} at:`,
      where,
      '',
      fate,
      'Create a new token in your license portal, use it wherever the old one was, and remove the old one from where it was found.',
    ].join('\n'),
    reference: `holder-token:${token.id}`,
  });
  if (!facts.sellerEmail) return;
  await ctx.mailer.send({
    to: facts.sellerEmail,
    subject: `A license holder's Composer token was found in public`,
    text: [
      `GitHub's secret scanning found the Composer token ${which} of ${facts.holderEmail} at:`,
      where,
      '',
      fate,
      'The holder was told. You can change whether leaked tokens are revoked at once or kept for 24 hours in Settings.',
    ].join('\n'),
    reference: `holder-token:${token.id}`,
  });
}
