import type { SignInErrorCode } from '@contract/auth-messages';
import { signInErrorMessages } from '../../../contract/auth-messages';

/** Query parameters the sign-in flows leave on `/`: `?signin=email[&tier=][&error=]` or `?error=`. */
export const SIGN_IN_PARAMS = ['signin', 'error', 'tier'] as const;

export type SignInQuery = {
  /** The e-mail sign-in form should be open. */
  isEmailSignIn: boolean;
  tier?: string;
  /** Why the last sign-in attempt failed, in words for the user. */
  errorMessage?: string;
};

const isSignInErrorCode = (code: string): code is SignInErrorCode => Object.hasOwn(signInErrorMessages, code);

export function readSignInQuery(search: string): SignInQuery {
  const params = new URLSearchParams(search);
  const error = params.get('error');
  return {
    isEmailSignIn: params.get('signin') === 'email',
    tier: params.get('tier') || undefined,
    errorMessage: error && isSignInErrorCode(error) ? signInErrorMessages[error] : undefined,
  };
}

/** The same query without the sign-in parameters (other parameters kept), with its leading '?'. */
export function withoutSignInParams(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of SIGN_IN_PARAMS) params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** The same query asking for the e-mail sign-in form. */
export function withEmailSignIn(search: string, tier?: string): string {
  const params = new URLSearchParams(search);
  params.delete('error');
  params.set('signin', 'email');
  if (tier) params.set('tier', tier);
  return `?${params.toString()}`;
}
