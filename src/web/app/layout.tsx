import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SecondFactorGate } from '../features/auth/second-factor-gate';
import { SignInErrorNotice } from '../features/auth/sign-in-error-notice';
import { readSignInQuery } from '../features/auth/sign-in-params';
import { ClosedAccountBanner } from '../features/settings/closed-account-banner';
import { ErrorBoundary } from './error-boundary';
import { Footer } from './footer';
import { Header } from './header';
import { ImpersonationBar } from './impersonation-bar';
import { SubscriptionBanner } from './subscription-banner';

const EmailSignInDialog = lazy(async () => ({
  default: (await import('../features/auth/email-sign-in-dialog')).EmailSignInDialog,
}));

/** The e-mail sign-in dialog (and the Radix dialog under it) loads when first asked for by `?signin=email`. */
function LazyEmailSignInDialog() {
  const isAsked = readSignInQuery(useSearch()).isEmailSignIn;
  const [isLoaded, setIsLoaded] = useState(isAsked);
  if (isAsked && !isLoaded) setIsLoaded(true);
  if (!isLoaded) return null;
  return (
    <Suspense fallback={null}>
      <EmailSignInDialog />
    </Suspense>
  );
}

/** The app shell around every page of the product's own host. */
export function AppLayout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return (
    <div className="flex min-h-screen flex-col">
      <ImpersonationBar />
      <Header />
      <SubscriptionBanner />
      <ClosedAccountBanner />
      <main className="flex-1">
        {/* Keyed by the path: a page that failed to render does not keep the error screen on the next page. */}
        <ErrorBoundary key={location}>
          <SecondFactorGate>{children}</SecondFactorGate>
        </ErrorBoundary>
      </main>
      <Footer />
      <LazyEmailSignInDialog />
      <SignInErrorNotice />
    </div>
  );
}
