import {
  API_TOKEN_PERMISSIONS,
  type ApiToken,
  type ApiTokenPermission,
  type ApiTokenState,
  apiTokenState,
} from '../../../contract/developer';

// How API tokens read on the /api-tokens page (spec admin §2, §4, §5), apart from React for tests.

export type { ApiToken, ApiTokenPermission, ApiTokenState };
export { API_TOKEN_PERMISSIONS, apiTokenState };

export const apiTokenStateLabels: Record<ApiTokenState, string> = {
  active: 'Active',
  inactive: 'Inactive',
  expired: 'Expired',
};

/**
 * A permission as the API writes it (`packages:read`), on the badges as on /api-docs and in the 403s: one copied
 * from a badge is accepted (issue 36; the spec's `packages read` was refused). `*` keeps the spec's Full Access.
 */
export const permissionLabel = (permission: string): string => (permission === '*' ? '* (Full Access)' : permission);

/** Only an active token authenticates; the others carry the spec's dead-token sentence. */
export const isUsableToken = (token: Pick<ApiToken, 'isActive' | 'expiresAt'>, now: Date): boolean =>
  apiTokenState(token, now) === 'active';

export const DEAD_TOKEN_TEXT = 'This token cannot be used for API requests';

/** Create stays disabled until the name is more than blanks and a permission is chosen (spec §5). */
export const canCreateToken = (name: string, permissions: readonly string[]): boolean =>
  name.trim().length > 0 && permissions.length > 0;

/** Toggles one permission, keeping the dialog's order (the contract's order). */
export function togglePermission(
  chosen: readonly ApiTokenPermission[],
  permission: ApiTokenPermission,
): ApiTokenPermission[] {
  const next = new Set(chosen);
  if (next.has(permission)) next.delete(permission);
  else next.add(permission);
  return API_TOKEN_PERMISSIONS.filter((candidate) => next.has(candidate));
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A local date and time in the `YYYY-MM-DDTHH:mm` form a datetime-local input takes as min and value. */
export function toDateTimeLocal(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The expiry the server is sent: a datetime-local value read in the browser's zone, as an ISO instant;
 * null for an empty field (never expires) and undefined for one that is not a date.
 */
export function expiryToIso(value: string): string | null | undefined {
  if (!value.trim()) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** An expiry before now is refused before it is sent (spec §5: minimum now). */
export function expiryProblem(value: string, now: Date): string | undefined {
  const iso = expiryToIso(value);
  if (iso === null) return undefined;
  if (iso === undefined) return 'Enter a valid date and time';
  return new Date(iso).getTime() <= now.getTime() ? 'The expiration must be in the future' : undefined;
}

/** Dates in en-US (spec seller-app §9), one format across the app. */
export { formatDate, formatDateTime } from '../../lib/format-date';
