/** Browser navigation here signs in with GitHub, or lands on the e-mail sign-in form when it is not set up. */
export const GITHUB_SIGN_IN_PATH = '/api/auth/github';

/** `/api/auth/github`, with `?tier=` when a plan was chosen, so that sign-in remembers it. */
export function signInHref(tierId?: string): string {
  return tierId ? `${GITHUB_SIGN_IN_PATH}?tier=${encodeURIComponent(tierId)}` : GITHUB_SIGN_IN_PATH;
}
