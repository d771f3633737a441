import { CLIENT_ROUTES } from '@contract/client-routes';
import { lazy, type ReactNode, Suspense } from 'react';
import { Redirect, useLocation } from 'wouter';
import { useCurrentUser } from '../../lib/current-user';

// The second step of signing in (issue 33 item 5): while the session's second factor is pending, every page shows
// the verify step instead (a passkey, an authenticator code or a recovery code); a person required to have a second
// factor and without one is sent to the Security page before anything else.

const VerifySecondFactor = lazy(() => import('./verify-second-factor'));

export function SecondFactorGate({ children }: { children: ReactNode }) {
  const { data: user } = useCurrentUser();
  const [location] = useLocation();
  const state = user?.secondFactor;
  if (state?.pending) {
    return (
      <Suspense fallback={null}>
        <VerifySecondFactor methods={state.methods} />
      </Suspense>
    );
  }
  if (state?.enrolmentRequired && location !== CLIENT_ROUTES.security) {
    return <Redirect to={CLIENT_ROUTES.security} replace />;
  }
  return children;
}
