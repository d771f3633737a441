import {
  type MagicLinkResponse,
  magicLinkRequest,
  type VerifyMagicLinkResponse,
  verifyMagicLinkRequest,
} from '@contract/auth';
import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, Info, KeyRound, Loader2, Mail, ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Redirect, useSearch } from 'wouter';
import { MAGIC_LINK_VALIDITY_MINUTES } from '../../../contract/auth-messages';
import { FormInput } from '../../components/form-field';
import { MagicLinkEmailInput } from '../../components/magic-link-email-input';
import { PasskeySignInButton } from '../../components/passkey-sign-in-button';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card';
import { toast, toastAfterReload } from '../../components/ui/use-toast';
import { apiRequest } from '../../lib/api-client';
import { isAdmin, useCurrentUser } from '../../lib/current-user';
import { useSchemaForm } from '../../lib/schema-form';
import { magicLinkRequestFailure, tokenVerificationFailure } from './admin-login-messages';

type Step = 'email' | 'token';

const adminEmail = magicLinkRequest.pick({ email: true });

/**
 * /admin/login (spec admin §2, §4, §8): e-mail step, then token step; the link from the e-mail carries
 * `?token=` and submits itself once. Success is a full page load of /admin.
 */
export function AdminLoginPage() {
  const search = useSearch();
  const tokenFromLink = new URLSearchParams(search).get('token')?.trim() || '';
  const { data: user } = useCurrentUser();
  const [step, setStep] = useState<Step>(tokenFromLink ? 'token' : 'email');
  // react-hook-form over the contract's schemas (issue 29 item 7), one form per step.
  const emailForm = useSchemaForm(adminEmail, { email: '' });
  const tokenForm = useSchemaForm(verifyMagicLinkRequest, { token: tokenFromLink });
  const autoSubmitted = useRef(false);

  const requestLink = useMutation({
    mutationFn: (address: string) =>
      apiRequest<MagicLinkResponse>('POST', '/api/auth/magic-link', { email: address, userType: 'admin' }),
    onSuccess: (response) => {
      // A development server hands the token back; it is logged for the developer, never shown.
      if (response?.token) console.info('Admin magic link token (development only):', response.token);
      toast({ title: 'Magic Link Sent', description: response?.message ?? 'Check your email for the login link.' });
      setStep('token');
    },
    onError: (error, address) => toast({ variant: 'destructive', ...magicLinkRequestFailure(error, address) }),
  });

  const verify = useMutation({
    mutationFn: (value: string) =>
      apiRequest<VerifyMagicLinkResponse>('POST', '/api/auth/verify-magic-link', { token: value }),
    onSuccess: () => {
      toastAfterReload({ title: 'Login Successful', description: 'Successfully logged in as admin.' });
      window.location.href = '/admin';
    },
    onError: (error) => toast({ variant: 'destructive', ...tokenVerificationFailure(error) }),
  });

  // The e-mailed link submits its token once, even when React runs effects twice in development.
  useEffect(() => {
    if (!tokenFromLink || autoSubmitted.current) return;
    autoSubmitted.current = true;
    verify.mutate(tokenFromLink);
  }, [tokenFromLink, verify]);

  if (isAdmin(user) && !verify.isPending && !verify.isSuccess) return <Redirect to="/admin" replace />;

  const submitEmail = emailForm.handleSubmit(({ email }) => requestLink.mutate(email));
  const submitToken = tokenForm.handleSubmit(({ token }) => verify.mutate(token));

  const backToEmail = () => {
    tokenForm.reset({ token: '' });
    verify.reset();
    setStep('email');
  };

  const isVerifying = verify.isPending || verify.isSuccess;

  return (
    <div className="flex min-h-[70vh] items-center justify-center px-4 py-12">
      <Card className="w-full max-w-md">
        <CardHeader className="text-center">
          <div className="mx-auto mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            {step === 'email' ? <ShieldCheck className="size-6" /> : <KeyRound className="size-6" />}
          </div>
          {/* The page's own heading: a standalone page needs an h1 (CardTitle is an h3 inside other pages' cards). */}
          <h1 className="text-2xl font-semibold leading-none tracking-tight">
            {step === 'email' ? 'Admin Login' : 'Enter Magic Link Token'}
          </h1>
          <CardDescription>
            {step === 'email'
              ? 'Sign in to the Packgate admin area with a magic link.'
              : 'Open the link in the email we sent you, or paste its token below.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {step === 'email' ? (
            <form onSubmit={submitEmail} className="grid gap-4">
              <MagicLinkEmailInput
                form={emailForm}
                id="admin-email"
                label="Admin Email Address"
                placeholder="admin@example.com"
              />
              <Button type="submit" disabled={requestLink.isPending}>
                {requestLink.isPending ? <Loader2 className="animate-spin" /> : <Mail />}
                Send Magic Link
              </Button>
              <PasskeySignInButton />
              <div className="flex gap-3 rounded-md border border-blue-500/30 bg-blue-500/10 p-3 text-sm">
                <Info className="mt-0.5 size-4 shrink-0 text-blue-600" />
                <p>
                  Admin accounts must be pre-created by a system administrator. Magic links are sent to admin accounts
                  only.
                </p>
              </div>
            </form>
          ) : (
            <form onSubmit={submitToken} className="grid gap-4">
              <FormInput
                form={tokenForm}
                name="token"
                id="admin-token"
                label="Magic Link Token"
                fieldClassName="grid gap-2 space-y-0"
                autoComplete="off"
                spellCheck={false}
                placeholder="Paste the token from the email"
                required
                autoFocus={!tokenFromLink}
                className="font-mono"
              />
              <Button type="submit" disabled={isVerifying}>
                {isVerifying && <Loader2 className="animate-spin" />}
                Login
              </Button>
              <Button variant="ghost" onClick={backToEmail} disabled={isVerifying}>
                <ArrowLeft />
                Back to Email
              </Button>
              <p className="text-center text-sm text-muted-foreground">
                Tokens expire after {MAGIC_LINK_VALIDITY_MINUTES} minutes.
              </p>
            </form>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
