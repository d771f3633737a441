import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { TaskProgressWidget } from '../components/task-progress';
import { EmailSignInDialog, SignInErrorNotice } from '../features/auth/email-sign-in-dialog';
import { ErrorBoundary } from './error-boundary';
import { Footer } from './footer';
import { Header } from './header';
import { ImpersonationBar } from './impersonation-bar';
import { SubscriptionBanner } from './subscription-banner';

/** The app shell around every page of the product's own host. */
export function AppLayout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return (
    <div className="flex min-h-screen flex-col">
      <ImpersonationBar />
      <Header />
      <SubscriptionBanner />
      <main className="flex-1">
        {/* Keyed by the path: a page that failed to render does not keep the error screen on the next page. */}
        <ErrorBoundary key={location}>{children}</ErrorBoundary>
      </main>
      <Footer />
      <EmailSignInDialog />
      <SignInErrorNotice />
      <TaskProgressWidget />
    </div>
  );
}
