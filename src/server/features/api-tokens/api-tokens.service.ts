import {
  API_TOKEN_PERMISSIONS,
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenPermission,
  apiTokenState,
  type CreateApiTokenInput,
  type CreatedApiToken,
} from '../../../contract/developer.js';
import { isTeamPermission, type OrganizationRole, roleCan } from '../../../contract/team.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { type ActingPerson, type Principal, personLabel } from '../../http/principal.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';
import { maskTokenId, recordAuditEvent } from '../shared/audit/audit.service.js';
import type { ApiTokenRow, TokenWithCreator } from './api-tokens.repository.js';
import * as repository from './api-tokens.repository.js';

// API tokens (spec admin-and-developer-platform §3, §4, §6): created by the seller on /api-tokens (or by a token
// holding tokens:write), shown once, stored as SHA-256, used as `Authorization: Bearer pga_...` on /api/v1.

/** lastUsedAt is a hint for the seller, not a log: one write a minute per token at most. */
const LAST_USED_RESOLUTION_MS = 60_000;
export const FULL_ACCESS: ApiTokenPermission = '*';

export const apiTokenMessages = {
  notFound: 'API token not found',
  missing: 'Send your API token in the Authorization header: Authorization: Bearer pga_...',
  unknown: 'This API token is not valid. Check that it was copied whole, or create a new one on /api-tokens.',
  deleted: 'This API token was deleted and can no longer be used. Create a new one on /api-tokens.',
  inactive: 'This API token is inactive and cannot be used for API requests.',
  expiryInPast: 'The expiration must be in the future',
} as const;

export function presentApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    permissions: row.permissions as ApiTokenPermission[],
    expiresAt: row.expiresAt?.toISOString() ?? null,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** `*` holds every permission. */
export function hasPermission(granted: readonly string[], needed: ApiTokenPermission): boolean {
  return granted.includes(FULL_ACCESS) || granted.includes(needed);
}

/**
 * What an API token may do in an organisation whose member `role` created it (issue 33): its own permissions within
 * the role's. `*` stays `*` while the role holds every API permission; a creator no longer a member gives nothing.
 */
export function apiPermissionsWithin(permissions: readonly string[], role: OrganizationRole | null): string[] {
  if (!role) return [];
  const roleAllows = (permission: string) => isTeamPermission(permission) && roleCan(role, permission);
  const named = API_TOKEN_PERMISSIONS.filter((permission) => permission !== FULL_ACCESS);
  if (named.every(roleAllows)) return [...permissions];
  const granted = permissions.includes(FULL_ACCESS) ? named : permissions;
  return granted.filter(roleAllows);
}

/** The most a member of `role` may put in a token they create: `*` when the role holds every API permission. */
export function apiPermissionsOfRole(role: OrganizationRole | null): string[] {
  return apiPermissionsWithin([FULL_ACCESS], role);
}

/**
 * What the principal may put in a new token: a token what it holds; a member what their role allows (issue 33); an
 * admin, on their own account or as an organisation's owner, what an owner may. The platform is not limited.
 */
function grantablePermissions(actor: Principal): readonly string[] | undefined {
  if (actor.kind === 'api_token') return actor.permissions;
  if (actor.kind === 'member') return apiPermissionsOfRole(actor.role);
  if (actor.kind === 'admin') return apiPermissionsOfRole('owner');
  return undefined;
}

export async function listApiTokens(ctx: AppContext, sellerId: string): Promise<ApiToken[]> {
  return (await repository.listLiveTokens(ctx, sellerId)).map(presentApiToken);
}

/**
 * Creates a token and answers its plaintext once. A token creating a token may only hand out permissions it
 * holds itself, so that tokens:write cannot mint full access.
 */
export async function createApiToken(
  ctx: AppContext,
  actor: Principal,
  input: CreateApiTokenInput,
): Promise<CreatedApiToken> {
  const now = ctx.clock.now();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw new AppError('VALIDATION_FAILED', apiTokenMessages.expiryInPast);
  }
  const permissions = [...new Set(input.permissions)];
  const grantable = grantablePermissions(actor);
  if (grantable) {
    const beyond = permissions.filter((permission) => !hasPermission(grantable, permission));
    if (beyond.length > 0 && actor.kind === 'api_token') {
      throw new AppError('FORBIDDEN', `This API token cannot grant permissions it does not hold: ${beyond.join(', ')}`);
    }
    if (beyond.length > 0) {
      // A member's tokens never do more than the member's role (issue 33).
      throw new AppError('FORBIDDEN', `Your role cannot grant these API token permissions: ${beyond.join(', ')}`, {
        suggestion: `Choose among: ${grantable.join(', ')}.`,
      });
    }
  }
  const token = generateToken(API_TOKEN_PREFIX.slice(0, -1));
  const row = await ctx.db.transaction(async (tx) => {
    const inserted = await repository.insertApiToken(
      { db: tx },
      {
        userId: actor.sellerId,
        createdById: actor.person?.id ?? null,
        name: input.name.trim(),
        tokenHash: sha256Hex(token),
        permissions,
        expiresAt,
        createdAt: now,
      },
    );
    await recordAuditEvent(tx, ctx, actor, {
      action: 'api_token.created',
      targetType: 'api_token',
      // Token ids appear masked in the audit trail, whether acting or acted upon.
      targetId: maskTokenId(inserted.id),
      details: { name: inserted.name, permissions, expiresAt: inserted.expiresAt?.toISOString() ?? null },
    });
    return inserted;
  });
  return { ...presentApiToken(row), token };
}

/** Permanent from the seller's view: the token disappears from the list and its next request gets 401. */
export async function deleteApiToken(ctx: AppContext, actor: Principal, tokenId: string): Promise<ApiToken> {
  const row = await repository.findLiveToken(ctx, actor.sellerId, tokenId);
  if (!row) throw new AppError('NOT_FOUND', apiTokenMessages.notFound);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    if (!(await repository.markTokenDeleted({ db: tx }, actor.sellerId, row.id, now))) {
      throw new AppError('NOT_FOUND', apiTokenMessages.notFound);
    }
    await recordAuditEvent(tx, ctx, actor, {
      action: 'api_token.deleted',
      targetType: 'api_token',
      targetId: maskTokenId(row.id),
      details: { name: row.name },
    });
  });
  return presentApiToken({ ...row, isActive: false });
}

/**
 * Deletes the tokens a member created in the organisation, when they are removed from it (issue 33): `db` is the
 * removal's transaction. Answers how many.
 */
export async function deleteTokensOfMember(
  db: Parameters<typeof repository.markTokensOfCreatorDeleted>[0]['db'],
  organizationId: string,
  memberId: string,
  now: Date,
): Promise<number> {
  return repository.markTokensOfCreatorDeleted({ db }, organizationId, memberId, now);
}

export type AuthenticatedToken = {
  id: string;
  sellerId: string;
  /** What the token may do now: its own permissions within its creator's current role (issue 33). */
  permissions: string[];
  /** The member who created it, as the audit trail names them; null when that person no longer exists. */
  creator: ActingPerson | null;
  /** The organisation's account row, read with the token. */
  seller: ApiTokenSeller;
};
export type ApiTokenSeller = TokenWithCreator['seller'];

const unauthenticated = (message: string) =>
  new AppError('UNAUTHENTICATED', message, { headers: { 'www-authenticate': 'Bearer realm="api"' } });

/**
 * The token behind a Bearer credential, or a 401 that says why: missing, unknown, deleted, inactive or expired.
 * Records the use (at most once a minute).
 */
export async function authenticateApiToken(ctx: AppContext, token: string | undefined): Promise<AuthenticatedToken> {
  if (!token) throw unauthenticated(apiTokenMessages.missing);
  if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) throw unauthenticated(apiTokenMessages.unknown);
  const found = await repository.findTokenByHash(ctx, sha256Hex(token));
  if (!found) throw unauthenticated(apiTokenMessages.unknown);
  const row = found.token;
  if (row.deletedAt) throw unauthenticated(apiTokenMessages.deleted);
  const now = ctx.clock.now();
  const state = apiTokenState(presentApiToken(row), now);
  if (state === 'inactive') throw unauthenticated(apiTokenMessages.inactive);
  if (state === 'expired') {
    throw unauthenticated(`This API token expired on ${row.expiresAt!.toISOString()} and can no longer be used.`);
  }
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await repository.touchLastUsed(ctx, row.id, now, LAST_USED_RESOLUTION_MS);
  }
  // The account's founding person owns it unless a membership row says otherwise (http/session.ts does the same).
  const role = found.creatorRole ?? (found.creator?.id === row.userId ? 'owner' : null);
  return {
    id: row.id,
    sellerId: row.userId,
    permissions: apiPermissionsWithin(row.permissions, role),
    creator: found.creator ? { id: found.creator.id, label: personLabel(found.creator) } : null,
    seller: found.seller,
  };
}
