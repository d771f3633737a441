/**
 * Every path the web app renders a page for (its router's routes). The server answers these with 200 and any other
 * non-API path with 404 and the same page, so that crawlers and monitors see the truth while visitors still get the
 * app's own 404 page.
 */
export const CLIENT_ROUTES = {
  landing: '/',
  terms: '/terms',
  privacy: '/privacy',
  composerAccessOnly: '/composer-access-only',
  /** On a seller's repository host: a package's purchase page (`?package={id}`) and the page after paying (`?session_id=`). */
  purchase: '/purchase',
  purchaseSuccess: '/purchase/success',
  /** On a seller's repository host: the license holder's portal (`?token=` from the sign-in e-mail). */
  portal: '/portal',
  adminLogin: '/admin/login',
  admin: '/admin',
  dashboard: '/dashboard',
  management: '/management',
  analytics: '/analytics',
  subscribe: '/subscribe',
  billing: '/billing',
  documentation: '/documentation',
  apiTokens: '/api-tokens',
  apiDocs: '/api-docs',
  webhooks: '/webhooks',
  /** The organisation's members, roles and invitations (issue 33). */
  team: '/team',
  /** An invitation e-mail's link (`?token=`): accept it and join the organisation. */
  teamJoin: '/team/join',
  /** The account's data export and closing the account (issue 35). */
  settings: '/settings',
  /** The person's passkeys, authenticator app, recovery codes and signed-in sessions (issue 33). */
  security: '/security',
  /** Where the seller's code comes from: connections to GitHub, GitLab, Bitbucket, git servers (issue 30). */
  codeHosts: '/code-hosts',
  /** The GitHub App's Setup URL: GitHub sends the seller back here with `installation_id` and `state`. */
  codeHostsGithubAppSetup: '/code-hosts/github-app/setup',
  /** The 404 page and the documentation's Quick Links name Management by this older path; it redirects. */
  packages: '/packages',
} as const;

/** Shown only when the deployment enables debug routes; a 404 page otherwise. */
export const DEBUG_CLIENT_ROUTES = { logoutTest: '/logout-test' } as const;

const clientPaths: ReadonlySet<string> = new Set(Object.values(CLIENT_ROUTES));
const debugClientPaths: ReadonlySet<string> = new Set(Object.values(DEBUG_CLIENT_ROUTES));

/** Whether the web app has a page at this path (no query string); debug pages count only where they are served. */
export function isClientRoute(pathname: string, options: { debugRoutes: boolean }): boolean {
  return clientPaths.has(pathname) || (options.debugRoutes && debugClientPaths.has(pathname));
}
