import { type MagicLinkResponse, magicLinkRequest } from '@contract/auth';
import { useMutation } from '@tanstack/react-query';
import { Loader2, Mail, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { sellerLinkSentMessage } from '../../../contract/auth-messages';
import { MagicLinkEmailInput } from '../../components/magic-link-email-input';
import { PasskeySignInButton } from '../../components/passkey-sign-in-button';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { toast } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-error';
import { useCurrentUser } from '../../lib/current-user';
import { useSchemaForm } from '../../lib/schema-form';
import { readSignInQuery, withoutSignInParams } from './sign-in-params';

/**
 * Sign-in by e-mailed link for sellers, used when GitHub sign-in is not configured. It opens whenever the
 * query says `?signin=email` (the header's Sign in button, or the server's redirect from /api/auth/github).
 */
export function EmailSignInDialog() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const { data: user } = useCurrentUser();
  const query = readSignInQuery(search);
  const open = query.isEmailSignIn && !user;

  const close = () => navigate(`${location}${withoutSignInParams(search)}`, { replace: true });

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent className="max-w-md">
        {/* Keyed by the query so that a new request starts from an empty form. */}
        <EmailSignInForm key={search} tier={query.tier} errorMessage={query.errorMessage} />
      </DialogContent>
    </Dialog>
  );
}

const signInEmail = magicLinkRequest.pick({ email: true });

function EmailSignInForm({ tier, errorMessage: linkError }: { tier?: string; errorMessage?: string }) {
  // The server's answer, the same whether a link went out or the address has had its links for the window.
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const request = useMutation({
    mutationFn: (address: string) =>
      apiRequest<MagicLinkResponse>('POST', '/api/auth/magic-link', { email: address, userType: 'seller', tier }),
    onSuccess: (response, address) => {
      // Only a development server returns the token; it is never shown, only logged for the developer.
      if (response?.token) console.info('Magic link token (development only):', response.token);
      setSentMessage(response?.message ?? sellerLinkSentMessage(address));
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to send the sign-in link. Please try again.'),
      });
    },
  });

  // react-hook-form over the contract's schema (issue 29 item 7); the browser's own e-mail check runs first.
  const form = useSchemaForm(signInEmail, { email: '' });
  const email = form.watch('email');
  const submit = form.handleSubmit(({ email: address }) => request.mutate(address));

  if (sentMessage) {
    return (
      <>
        <DialogHeader>
          <div className="mb-2 flex size-10 items-center justify-center rounded-full bg-primary/10 text-primary">
            <MailCheck className="size-5" />
          </div>
          <DialogTitle>Check your email</DialogTitle>
          <DialogDescription data-testid="sign-in-link-sent">
            {sentMessage} Open the link on this device to continue; it works once.
          </DialogDescription>
        </DialogHeader>
        <Button variant="outline" onClick={() => setSentMessage(null)}>
          Use a different email
        </Button>
      </>
    );
  }

  return (
    <form onSubmit={submit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Sign in</DialogTitle>
        <DialogDescription>
          Enter your email address and we will send you a link to sign in. New here? The same link creates your account.
        </DialogDescription>
      </DialogHeader>
      {linkError && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm">
          {linkError}
        </p>
      )}
      <MagicLinkEmailInput form={form} id="sign-in-email" label="Email Address" placeholder="you@example.com" />
      <Button type="submit" disabled={request.isPending || !email.trim()}>
        {request.isPending ? <Loader2 className="animate-spin" /> : <Mail />}
        Send Sign-in Link
      </Button>
      <PasskeySignInButton />
    </form>
  );
}
