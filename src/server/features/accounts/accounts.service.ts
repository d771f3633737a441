import type { AccountStatus } from '../../../contract/account.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { TokenPrincipal } from '../../http/principal.js';
import { roleIn } from '../teams/teams.service.js';
import type { User } from '../users/users.service.js';
import { accountMessages } from './account-closing.js';
import { type AccountExport, buildAccountExport } from './account-export.js';

// A seller's account as a whole (issue 35 item 5): its data to take away, closing it, and erasing it after the
// retention. The doors (Settings, API v1) call these; the rules are in account-export.ts and account-closing.ts.

export {
  ACCOUNT_ERASE_JOB,
  accountMessages,
  type ClosedAccount,
  closeAccount,
  eraseClosedAccount,
} from './account-closing.js';
export { type AccountExport, EXPORT_LISTS, exportFilename } from './account-export.js';

/** The headers that make an export archive a download named after the account and the day. */
export function exportDownloadHeaders(archive: AccountExport): Record<string, string> {
  return {
    'content-type': 'application/gzip',
    'content-disposition': `attachment; filename="${archive.filename}"`,
    'cache-control': 'no-store',
  };
}

/**
 * The export for an API token: only one the organisation's owner created (a founder, or a member whose role is owner)
 * may take it, as only the owner may on Settings; an admin's full-access token is refused.
 */
export async function exportAccountForToken(ctx: AppContext, token: TokenPrincipal): Promise<AccountExport> {
  // The token acts for its creator: the principal's person.
  const creatorId = token.person?.id;
  const isOwner = creatorId !== undefined && (await roleIn(ctx, token.sellerId, creatorId)) === 'owner';
  if (!isOwner) throw new AppError('FORBIDDEN', accountMessages.exportOwnerOnly);
  return buildAccountExport(ctx, token.organization);
}

/** The .tar.gz of the account's data (see account-export.ts), for its owner. */
export async function exportAccount(ctx: AppContext, account: User): Promise<AccountExport> {
  return buildAccountExport(ctx, account);
}

export function presentAccountStatus(ctx: AppContext, account: User): AccountStatus {
  return {
    slug: account.slug,
    closedAt: account.closedAt?.toISOString() ?? null,
    eraseAfter: account.eraseAfter?.toISOString() ?? null,
    retentionDays: Math.round(ctx.config.accountRetentionMs / 86_400_000),
  };
}
