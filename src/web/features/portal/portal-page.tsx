import { portalMessages } from '@contract/portal';
import { BrandHeader } from '@web/components/brand-header';
import { CenteredSpinner } from '@web/components/centered-spinner';
import { errorMessage } from '@web/lib/api-error';
import { brandCssVariables } from '@web/lib/brand-theme';
import { useDocumentTitle } from '@web/lib/document-title';
import { type PublicBrand, useHostBrand } from '@web/lib/host-brand';
import { type ReactNode, useEffect, useRef } from 'react';
import { HolderView } from './portal-holder-view';
import { usePortalSession, useVerifySignInLink } from './portal-hooks';
import { SignInForm } from './portal-sign-in';

/**
 * `/portal` on a seller's repository host: the license holder's own page, in the seller's brand. Signed out, it
 * asks for the e-mail address and sends a sign-in link; the link (`/portal?token=`) signs in on arrival.
 */
export function PortalPage() {
  const { data: brand, isLoading } = useHostBrand();

  useDocumentTitle(brand && `${brand.brandName} · License Portal`);

  if (isLoading) return <CenteredSpinner className="min-h-screen" />;
  if (!brand) {
    return (
      <main className="mx-auto flex min-h-screen max-w-xl items-center px-4">
        <p className="text-center text-muted-foreground" data-testid="portal-no-seller">
          {portalMessages.notAPortalHost}
        </p>
      </main>
    );
  }
  return (
    <div className="flex min-h-screen flex-col bg-background text-foreground" style={brandCssVariables(brand)}>
      <BrandHeader brand={brand} className="max-w-4xl" />
      <main className="mx-auto w-full max-w-4xl flex-1 px-3 py-8 sm:px-6 sm:py-12">
        <PortalContent brand={brand} />
      </main>
      <footer className="border-t py-6 text-center text-sm text-muted-foreground">
        <SupportLine brand={brand} />
      </footer>
    </div>
  );
}

function PortalContent({ brand }: { brand: PublicBrand }) {
  const linkToken = useRef(new URLSearchParams(window.location.search).get('token'));
  const verify = useVerifySignInLink();
  const hasStarted = useRef(false);
  useEffect(() => {
    const token = linkToken.current;
    if (!token || hasStarted.current) return;
    hasStarted.current = true;
    // The token is spent now: keep it out of the address bar and the history.
    window.history.replaceState(null, '', window.location.pathname);
    verify.mutate(token);
  }, [verify]);
  const isVerifying = Boolean(linkToken.current) && (verify.isIdle || verify.isPending);
  const session = usePortalSession(!isVerifying);

  if (isVerifying || session.isLoading) return <CenteredSpinner className="py-24" label="Signing you in" />;
  if (!session.data) {
    return (
      <SignInForm
        brand={brand}
        linkProblem={verify.isError ? errorMessage(verify.error, portalMessages.linkInvalid) : undefined}
      />
    );
  }
  return <HolderView email={session.data.email} />;
}

function SupportLine({ brand }: { brand: PublicBrand }): ReactNode {
  if (!brand.supportEmail) return `Questions about your license? Contact ${brand.brandName}.`;
  return (
    <>
      Questions about your license? Write to{' '}
      <a
        href={`mailto:${brand.supportEmail}`}
        className="font-medium text-primary underline-offset-4 hover:underline"
        data-testid="portal-support-email"
      >
        {brand.supportEmail}
      </a>
      .
    </>
  );
}
