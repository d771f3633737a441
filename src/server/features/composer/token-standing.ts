import type { TokenFacts } from './access-view.repository.js';

// Whether a named token (issue 32) works at a request's time, decided from its own facts as the view read them: a
// revoked token and one past its expiresAt are refused (401); a rotated token works until the end of its overlap
// (its expiresAt) and says so, as does a token a secret scanner reported that the seller chose to keep for a while.
// What it says goes into packages.json, which every project of the token reads: it concerns the token, not a package.

export type TokenStanding =
  | { kind: 'usable'; notice?: string }
  | { kind: 'refused'; message: string; suggestion: string };

/** `2026-03-02 12:00 UTC`: a moment a holder reads, whatever their time zone. */
export function formatMoment(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const USABLE: TokenStanding = { kind: 'usable' };

export function tokenStanding(token: TokenFacts, now: Date, authHost: string): TokenStanding {
  // The common case, on every warm request: a token neither revoked, nor ending, nor replaced, nor reported.
  if (token.revokedAt === null && token.expiresAt === null && token.leakedAt === null && token.replacedById === null) {
    return USABLE;
  }
  const replace = `use the new token from your license e-mail or the license portal: composer config bearer.${authHost} <token>`;
  if (token.revokedAt !== null) {
    return {
      kind: 'refused',
      message: `This token was revoked on ${day(token.revokedAt)} and no longer works.`,
      suggestion: capitalized(replace),
    };
  }
  if (token.expiresAt !== null && token.expiresAt.getTime() <= now.getTime()) {
    const message =
      token.replacedById !== null
        ? `This token was replaced${token.rotatedAt ? ` on ${day(token.rotatedAt)}` : ''} and stopped working at ${formatMoment(token.expiresAt)}.`
        : `This token expired at ${formatMoment(token.expiresAt)}.`;
    return { kind: 'refused', message, suggestion: capitalized(replace) };
  }
  if (token.leakedAt !== null) {
    const until = token.expiresAt ? ` and stops working at ${formatMoment(token.expiresAt)}` : '';
    return {
      kind: 'usable',
      notice: `This token was reported as leaked in public on ${day(token.leakedAt)}${until}; create a new token in the license portal and use it instead: composer config bearer.${authHost} <token>.`,
    };
  }
  if (token.replacedById !== null) {
    const until = token.expiresAt ? ` and stops working at ${formatMoment(token.expiresAt)}` : '';
    return {
      kind: 'usable',
      notice: `This token was replaced${token.rotatedAt ? ` on ${day(token.rotatedAt)}` : ''}${until}; ${replace}.`,
    };
  }
  return USABLE;
}
