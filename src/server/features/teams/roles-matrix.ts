import type { OrganizationRole } from '../../../contract/team.js';

/**
 * The expected answer of every seller route for every role (issue 33), kept apart from the code it checks: the
 * letters are the roles the route lets through (O owner, A admin, D developer, S support, V viewer); every other
 * role gets 403 naming what it lacks. roles-matrix.int.test.ts walks each route with each role and compares, and
 * fails when a route a signed-in seller uses is missing here or declares no permission.
 */
export const ROLES_MATRIX: Record<string, string> = {
  // The account as a whole (issue 35): only the owner takes its data away or closes it
  'GET /api/account': 'OADSV',
  'GET /api/account/export': 'O',
  'POST /api/account/close': 'O',
  // Dashboard and analytics
  'GET /api/analytics/dashboard': 'OADSV',
  'GET /api/analytics/downloads': 'OADV',
  'GET /api/analytics/versions': 'OADV',
  'GET /api/analytics/top-holders': 'OADV',
  'GET /api/analytics/stale-holders': 'OADV',
  'GET /api/analytics/sharing': 'OADV',
  'GET /api/analytics/export/:table': 'OADV',
  'GET /api/tasks': 'OADSV',
  'GET /api/sales/summary': 'OADSV',
  'GET /api/platform-subscription/status': 'OADSV',
  'GET /api/stripe/config': 'OADSV',
  // Packages (read by every role, changed by developers and up)
  'GET /api/repositories': 'OADSV',
  'GET /api/repositories/:id': 'OADSV',
  'GET /api/repositories/:id/lifecycle': 'OADSV',
  'GET /api/repositories/:id/pricing-tiers': 'OADSV',
  'GET /api/products/:productId/pricing-tiers': 'OADSV',
  'GET /api/github/repositories': 'OAD',
  // Code hosts (issue 30): every role sees the connections; developers and up connect, list and remove
  'GET /api/code-hosts': 'OADSV',
  'GET /api/code-hosts/:id/repositories': 'OAD',
  'DELETE /api/code-hosts/:id': 'OAD',
  'GET /api/code-hosts/github-app/install': 'OAD',
  'POST /api/code-hosts/github-app': 'OAD',
  'GET /api/code-hosts/gitlab': 'OADSV',
  'POST /api/code-hosts/gitlab/token': 'OAD',
  'GET /api/code-hosts/gitlab/authorize': 'OAD',
  'GET /api/code-hosts/gitlab/callback': 'OAD',
  'POST /api/code-hosts/bitbucket': 'OAD',
  'POST /api/repositories': 'OAD',
  'POST /api/repositories/from-url': 'OAD',
  'POST /api/repositories/reconcile': 'OAD',
  'PUT /api/repositories/:id': 'OAD',
  'DELETE /api/repositories/:id': 'OAD',
  'POST /api/repositories/:id/refresh': 'OAD',
  'POST /api/repositories/:id/advisories': 'OAD',
  'DELETE /api/repositories/:id/advisories/:advisoryId': 'OAD',
  'PUT /api/repositories/:id/abandonment': 'OAD',
  'DELETE /api/repositories/:id/abandonment': 'OAD',
  'PUT /api/repositories/:id/versions/:version/yank': 'OAD',
  'DELETE /api/repositories/:id/versions/:version/yank': 'OAD',
  // Products (issue 31): read by every role, made and changed by developers and up, as packages
  'GET /api/products': 'OADSV',
  'GET /api/products/:productId': 'OADSV',
  'POST /api/products': 'OAD',
  'PATCH /api/products/:productId': 'OAD',
  'DELETE /api/products/:productId': 'OAD',
  // Prices and sales
  'PUT /api/repositories/:id/pricing-tiers': 'OAD',
  'PUT /api/products/:productId/pricing-tiers': 'OAD',
  'POST /api/repositories/:id/test-purchase': 'OAD',
  'POST /api/products/:productId/test-purchase': 'OAD',
  // Holders and licenses, temporary and lasting
  'GET /api/customers': 'OADS',
  'POST /api/customers/regenerate-token': 'OADS',
  'GET /api/customers/:customerId/oidc-trusts': 'OADS',
  'POST /api/customers/:customerId/oidc-trusts': 'OADS',
  'DELETE /api/customers/:customerId/oidc-trusts/:trustId': 'OADS',
  'GET /api/customers/:customerId/tokens': 'OADS',
  'DELETE /api/customers/:customerId/tokens/:tokenId': 'OADS',
  'GET /api/settings/leaked-tokens': 'OADS',
  'PUT /api/settings/leaked-tokens': 'O',
  'GET /api/repositories/:id/temporary-licenses': 'OADS',
  'POST /api/repositories/:id/temporary-licenses': 'OADS',
  'DELETE /api/repositories/:id/temporary-licenses/:licenseId': 'OADS',
  'GET /api/repositories/:id/licenses': 'OADS',
  'POST /api/repositories/:id/licenses': 'OADS',
  'PATCH /api/licenses/:licenseId': 'OADS',
  'POST /api/licenses': 'OADS',
  'GET /api/products/:productId/licenses': 'OADS',
  // API tokens and webhooks
  'GET /api/developer/tokens': 'OAD',
  'POST /api/developer/tokens': 'OAD',
  'DELETE /api/developer/tokens/:id': 'OAD',
  'GET /api/webhooks': 'OAD',
  'POST /api/webhooks': 'OAD',
  'PATCH /api/webhooks/:id': 'OAD',
  'DELETE /api/webhooks/:id': 'OAD',
  'POST /api/webhooks/:id/rotate-secret': 'OAD',
  'GET /api/webhooks/:id/deliveries': 'OAD',
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver': 'OAD',
  'POST /api/webhooks/:id/test': 'OAD',
  // Branding (read by every role: the app shows the brand)
  'GET /api/user/default-branding': 'OADSV',
  'PUT /api/user/default-branding': 'OA',
  'POST /api/user/default-branding/verify-domain': 'OA',
  'POST /api/user/upload-logo-temp': 'OA',
  // The team
  'GET /api/team/members': 'OADSV',
  'PATCH /api/team/members/:memberId': 'OA',
  'DELETE /api/team/members/:memberId': 'OA',
  'GET /api/team/invitations': 'OA',
  'POST /api/team/invitations': 'OA',
  'POST /api/team/invitations/:id/resend': 'OA',
  'DELETE /api/team/invitations/:id': 'OA',
  'GET /api/organizations': 'OADSV',
  'POST /api/organizations/current': 'OADSV',
  // The person's own sign-in (issue 33 item 5): every role manages their own factors and sessions
  'GET /api/auth/security': 'OADSV',
  'POST /api/auth/passkeys/registration-options': 'OADSV',
  'POST /api/auth/passkeys/registration': 'OADSV',
  'GET /api/auth/passkeys': 'OADSV',
  'PATCH /api/auth/passkeys/:passkeyId': 'OADSV',
  'DELETE /api/auth/passkeys/:passkeyId': 'OADSV',
  'POST /api/auth/totp/enrolment': 'OADSV',
  'POST /api/auth/totp/enrolment/confirm': 'OADSV',
  'DELETE /api/auth/totp': 'OADSV',
  'POST /api/auth/recovery-codes': 'OADSV',
  'GET /api/auth/sessions': 'OADSV',
  'DELETE /api/auth/sessions/:sessionId': 'OADSV',
  'POST /api/auth/sessions/sign-out-others': 'OADSV',
  // The platform plan and payouts: owners only
  'POST /api/platform-subscription/create': 'O',
  'POST /api/platform-subscription/verify-checkout': 'O',
  'POST /api/platform-subscription/customer-portal': 'O',
  'POST /api/platform-subscription/cancel': 'O',
  'GET /api/platform-subscription/billing': 'O',
  'POST /api/platform-subscription/start-trial': 'O',
  'GET /api/sales/payout-account': 'O',
  'POST /api/sales/payout-account/onboarding-link': 'O',
};

const ROLE_LETTERS: Record<OrganizationRole, string> = {
  owner: 'O',
  admin: 'A',
  developer: 'D',
  support: 'S',
  viewer: 'V',
};

/** Whether the table lets `role` through `route` ('METHOD /path'). */
export function isAllowed(route: string, role: OrganizationRole): boolean {
  return (ROLES_MATRIX[route] ?? '').includes(ROLE_LETTERS[role]);
}
