import { CLIENT_ROUTES, DEBUG_CLIENT_ROUTES } from '@contract/client-routes';
import type { TeamPermission } from '@contract/team-roles';
import { type ComponentType, lazy, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { NotFoundPage } from '../features/legal/not-found-page';
import { LandingPage } from '../features/marketing/landing-page';
import { isWhiteLabelHost, usePublicConfig } from '../lib/public-config';
import { AppLayout } from './layout';
import { PageLoader, RequireAdmin, RequireAuth, RequirePermission } from './route-guards';

/** Loads a page's code when it is first shown; the landing and 404 pages stay in the main bundle. */
function lazyPage<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType) {
  return lazy(async () => ({ default: pick(await load()) }));
}

const AdminLoginPage = lazyPage(
  () => import('../features/admin/admin-login-page'),
  (m) => m.AdminLoginPage,
);
const AdminPage = lazyPage(
  () => import('../features/admin/admin-page'),
  (m) => m.AdminPage,
);
/**
 * The debug page that compares the ways of signing out, only in a development build (`vite`, or a build made with
 * VITE_DEBUG_PAGES=true): in a production build the condition is false at build time, so the bundler drops the
 * import and the page's chunk with it (issue 29 item 7).
 */
const LogoutTestPage =
  import.meta.env.DEV || import.meta.env.VITE_DEBUG_PAGES === 'true'
    ? lazyPage(
        () => import('../features/auth/logout-test-page'),
        (m) => m.LogoutTestPage,
      )
    : undefined;
/**
 * The Brand Settings form belongs to branding, the payout account and sales figures to sales; the dashboard shows
 * them, so the shell puts them together.
 */
const DashboardPage = lazy(async () => {
  const [dashboard, branding, sales] = await Promise.all([
    import('../features/dashboard/dashboard-page'),
    import('../features/branding/brand-settings-card'),
    import('../features/sales/seller-sales-section'),
  ]);
  return {
    default: () => (
      <dashboard.DashboardPage brandSettings={<branding.BrandSettingsCard />} sales={<sales.SellerSalesSection />} />
    ),
  };
});
const SubscribePage = lazyPage(
  () => import('../features/billing/subscribe-page'),
  (m) => m.SubscribePage,
);
const BillingPage = lazyPage(
  () => import('../features/billing/billing-page'),
  (m) => m.BillingPage,
);
const DocumentationPage = lazyPage(
  () => import('../features/documentation/documentation-page'),
  (m) => m.DocumentationPage,
);
const TermsPage = lazyPage(
  () => import('../features/legal/terms-page'),
  (m) => m.TermsPage,
);
const PrivacyPage = lazyPage(
  () => import('../features/legal/privacy-page'),
  (m) => m.PrivacyPage,
);
const ComposerAccessOnlyPage = lazyPage(
  () => import('../features/legal/composer-access-only-page'),
  (m) => m.ComposerAccessOnlyPage,
);
const PurchasePage = lazyPage(
  () => import('../features/sales/purchase-page'),
  (m) => m.PurchasePage,
);
const PurchaseSuccessPage = lazyPage(
  () => import('../features/sales/purchase-success-page'),
  (m) => m.PurchaseSuccessPage,
);
const PortalPage = lazyPage(
  () => import('../features/portal/portal-page'),
  (m) => m.PortalPage,
);
const PackageAccessOnlyPage = lazyPage(
  () => import('../features/marketing/package-access-page'),
  (m) => m.PackageAccessOnlyPage,
);
/**
 * Management belongs to packages, its Access Management tab and its Licenses and Temporary Licenses dialogs to licenses,
 * its Pricing dialog to sales; features do not import each other, so the shell puts them together.
 */
const ManagementPage = lazy(async () => {
  const [packages, licenses, licensesDialog, lastingLicensesDialog, pricingDialog, products] = await Promise.all([
    import('../features/packages/management-page'),
    import('../features/licenses/access-management-tab'),
    import('../features/licenses/temporary-licenses-dialog'),
    import('../features/licenses/licenses-dialog'),
    import('../features/sales/pricing-dialog'),
    import('../features/products/products-tab'),
  ]);
  return {
    default: () => (
      <packages.ManagementPage
        accessManagement={<licenses.AccessManagementTab />}
        products={<products.ProductsTab PricingDialog={pricingDialog.PricingDialog} />}
        TemporaryLicensesDialog={licensesDialog.TemporaryLicensesDialog}
        LicensesDialog={lastingLicensesDialog.LicensesDialog}
        PricingDialog={pricingDialog.PricingDialog}
      />
    ),
  };
});

const AnalyticsPage = lazyPage(
  () => import('../features/analytics/analytics-page'),
  (m) => m.AnalyticsPage,
);
const ApiTokensPage = lazyPage(
  () => import('../features/developer/api-tokens-page'),
  (m) => m.ApiTokensPage,
);
const ApiDocsPage = lazyPage(
  () => import('../features/developer/api-docs-page'),
  (m) => m.ApiDocsPage,
);
const WebhooksPage = lazyPage(
  () => import('../features/webhooks/webhooks-page'),
  (m) => m.WebhooksPage,
);
const TeamPage = lazyPage(
  () => import('../features/team/team-page'),
  (m) => m.TeamPage,
);
const SettingsPage = lazyPage(
  () => import('../features/settings/settings-page'),
  (m) => m.SettingsPage,
);
const SecurityPage = lazyPage(
  () => import('../features/security/security-page'),
  (m) => m.SecurityPage,
);
// One module for both pages (code-hosts-page re-exports the App's setup page): one list of chunks to preload in the
// landing page's first JavaScript instead of two (issue 12's 150 KB budget).
const codeHostsPages = () => import('../features/code-hosts/code-hosts-page');
const CodeHostsPage = lazyPage(codeHostsPages, (m) => m.CodeHostsPage);
const GithubAppSetupPage = lazyPage(codeHostsPages, (m) => m.GithubAppSetupPage);
const JoinTeamPage = lazyPage(
  () => import('../features/team/join-team-page'),
  (m) => m.JoinTeamPage,
);

/**
 * Pages for signed-in users only; signed-out visitors go to / (spec seller-app §6, admin §2). A page with a permission
 * tells a role that lacks it why it is not available (issue 33).
 */
const SIGNED_IN_PAGES: [path: string, Page: ComponentType, permission?: TeamPermission][] = [
  [CLIENT_ROUTES.dashboard, DashboardPage, 'dashboard:read'],
  [CLIENT_ROUTES.management, ManagementPage, 'packages:read'],
  [CLIENT_ROUTES.analytics, AnalyticsPage, 'analytics:read'],
  [CLIENT_ROUTES.subscribe, SubscribePage, 'plan:manage'],
  [CLIENT_ROUTES.billing, BillingPage, 'plan:manage'],
  [CLIENT_ROUTES.documentation, DocumentationPage],
  [CLIENT_ROUTES.apiTokens, ApiTokensPage, 'tokens:read'],
  [CLIENT_ROUTES.apiDocs, ApiDocsPage],
  [CLIENT_ROUTES.webhooks, WebhooksPage, 'webhooks:write'],
  [CLIENT_ROUTES.team, TeamPage],
  [CLIENT_ROUTES.settings, SettingsPage],
  [CLIENT_ROUTES.security, SecurityPage],
  [CLIENT_ROUTES.codeHosts, CodeHostsPage, 'packages:read'],
  [CLIENT_ROUTES.codeHostsGithubAppSetup, GithubAppSetupPage, 'packages:write'],
];

export function AppRouter() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes />
    </Suspense>
  );
}

function Routes() {
  const [location] = useLocation();
  const search = useSearch();
  const { data: config, isLoading: configLoading } = usePublicConfig();

  // Pages meant for Composer hosts stand alone, without the Packgate header and footer.
  if (location === CLIENT_ROUTES.composerAccessOnly) return <ComposerAccessOnlyPage />;
  if (location === CLIENT_ROUTES.purchase) return <PurchasePage />;
  if (location === CLIENT_ROUTES.purchaseSuccess) return <PurchaseSuccessPage />;
  if (location === CLIENT_ROUTES.portal) return <PortalPage />;
  if (location === CLIENT_ROUTES.landing) {
    if (configLoading) return <PageLoader />;
    if (isWhiteLabelHost(window.location.host, search, config?.publicUrl)) return <PackageAccessOnlyPage />;
  }

  return (
    <AppLayout>
      <Suspense fallback={<PageLoader />}>
        <Switch>
          <Route path={CLIENT_ROUTES.landing} component={LandingPage} />
          <Route path={CLIENT_ROUTES.terms} component={TermsPage} />
          <Route path={CLIENT_ROUTES.privacy} component={PrivacyPage} />
          <Route path={CLIENT_ROUTES.adminLogin} component={AdminLoginPage} />
          {/* An invitation's link works signed out too: accepting it signs the invitee in. */}
          <Route path={CLIENT_ROUTES.teamJoin} component={JoinTeamPage} />
          <Route path={CLIENT_ROUTES.admin}>
            <RequireAdmin>
              <AdminPage />
            </RequireAdmin>
          </Route>
          {SIGNED_IN_PAGES.map(([path, Page, permission]) => (
            <Route key={path} path={path}>
              <RequireAuth>
                {permission ? (
                  <RequirePermission permission={permission}>
                    <Page />
                  </RequirePermission>
                ) : (
                  <Page />
                )}
              </RequireAuth>
            </Route>
          ))}
          {/* The 404 page and the documentation's Quick Links name Management /packages. */}
          <Route path={CLIENT_ROUTES.packages}>
            <Redirect to={`${CLIENT_ROUTES.management}${search ? `?${search}` : ''}`} replace />
          </Route>
          <Route path={DEBUG_CLIENT_ROUTES.logoutTest}>
            {configLoading ? (
              <PageLoader />
            ) : config?.debugRoutes && LogoutTestPage ? (
              <LogoutTestPage />
            ) : (
              <NotFoundPage />
            )}
          </Route>
          {/* Any other path: the server answers it with 404 (src/contract/client-routes.ts keeps both sides in step). */}
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </AppLayout>
  );
}
