import {
  REQUIRE_SECOND_FACTOR_ADMINS_SETTING,
  REQUIRE_SECOND_FACTOR_OWNERS_SETTING,
} from '../../../contract/billing.js';
import type { SecondFactorState } from '../../../contract/security.js';
import type { AppContext } from '../../context.js';
import type { Account } from '../../http/principal.js';
import type { RequestAuth } from '../../http/session.js';
import { MUST_ENROL_SECOND_FACTOR } from '../../http/session.js';
import { readBooleanSetting } from '../shared/settings/platform-settings.service.js';
import { countUnusedRecoveryCodes } from './recovery-codes.service.js';
import * as repository from './second-factor.repository.js';

// Sign-in with a second factor (issue 33 item 5): who has one, who must have one (the admin's platform settings),
// and what a first-factor sign-in (e-mailed link, GitHub, an invitation link) starts: a session with the second
// factor pending for a person who has one; one sent to enrol for a person required to have one and without.

export type FirstFactor = 'link' | 'github';

export function passkeyCount(ctx: Pick<AppContext, 'db'>, userId: string): Promise<number> {
  return repository.countPasskeys(ctx.db, userId);
}

export async function hasConfirmedTotp(ctx: Pick<AppContext, 'db'>, userId: string): Promise<boolean> {
  return (await repository.findTotp(ctx.db, userId, true)) !== undefined;
}

/** A passkey or a confirmed authenticator app (recovery codes are the fallback, not a factor of their own). */
export async function hasSecondFactor(ctx: Pick<AppContext, 'db'>, userId: string): Promise<boolean> {
  return (await passkeyCount(ctx, userId)) > 0 || (await hasConfirmedTotp(ctx, userId));
}

/** Admins when the admins' setting is on; a seller when the owners' setting is on and they own the organisation. */
export async function isSecondFactorRequired(ctx: AppContext, person: Account, role: string | null): Promise<boolean> {
  if (person.userType === 'admin') return readBooleanSetting(ctx, REQUIRE_SECOND_FACTOR_ADMINS_SETTING);
  if (role !== 'owner') return false;
  return readBooleanSetting(ctx, REQUIRE_SECOND_FACTOR_OWNERS_SETTING);
}

/**
 * The options of startSession for a sign-in by `method`: the second factor pending when the person has one; sent to
 * enrol when one is required and they have none. A seller signs in to their own account, which they own.
 */
export async function firstFactorSessionOptions(
  ctx: AppContext,
  person: Account,
  method: FirstFactor,
): Promise<{ signInMethod: string; secondFactorPending: boolean; data?: Record<string, unknown> }> {
  if (await hasSecondFactor(ctx, person.id)) return { signInMethod: method, secondFactorPending: true };
  const role = person.userType === 'seller' ? 'owner' : null;
  if (await isSecondFactorRequired(ctx, person, role)) {
    return { signInMethod: method, secondFactorPending: false, data: { [MUST_ENROL_SECOND_FACTOR]: true } };
  }
  return { signInMethod: method, secondFactorPending: false };
}

/** GET /api/auth/user's `secondFactor`: what the session still has to do, and with which factors. */
export async function secondFactorState(ctx: AppContext, auth: RequestAuth): Promise<SecondFactorState> {
  const methods: SecondFactorState['methods'] = [];
  if (auth.secondFactorPending) {
    if ((await passkeyCount(ctx, auth.person.id)) > 0) methods.push('passkey');
    if (await hasConfirmedTotp(ctx, auth.person.id)) methods.push('totp');
    if ((await countUnusedRecoveryCodes(ctx, auth.person.id)) > 0) methods.push('recovery_code');
  }
  return {
    pending: auth.secondFactorPending === true,
    enrolmentRequired: auth.mustEnrolSecondFactor === true,
    methods,
  };
}
