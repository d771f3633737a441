import { portalMessages } from '@contract/portal';
import { FormAlert, FormInput } from '@web/components/form-field';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { errorMessage } from '@web/lib/api-error';
import type { PublicBrand } from '@web/lib/host-brand';
import { Loader2, Mail } from 'lucide-react';
import { z } from 'zod';
import { useSchemaForm } from '../../lib/schema-form';
import { useRequestSignInLink } from './portal-hooks';

const PORTAL_EMAIL_MAX = 320;
const signInForm = z.object({
  email: z.string().trim().min(1, portalMessages.emailRequired).max(PORTAL_EMAIL_MAX, portalMessages.emailInvalid),
});

/** Signed out: the e-mail address the license was issued to, and a sign-in link sent to it. */
export function SignInForm({ brand, linkProblem }: { brand: PublicBrand; linkProblem?: string }) {
  const request = useRequestSignInLink();
  // react-hook-form (issue 29): an empty address is refused before sending; the server's refusal (not an e-mail
  // address, too many links) is the form's error.
  const form = useSchemaForm(signInForm, { email: '' });
  const { errors } = form.formState;
  const email = form.watch('email');
  const submit = form.handleSubmit(({ email: address }) =>
    request.mutateAsync(address).catch((error: unknown) =>
      form.setError('root.server', {
        message: errorMessage(error, 'The sign-in link could not be sent. Please try again.'),
      }),
    ),
  );
  return (
    <Card className="mx-auto max-w-md">
      <CardHeader>
        <h1 className="text-2xl font-bold leading-none tracking-tight">Your licenses</h1>
        <CardDescription>
          Sign in to see your {brand.brandName} licenses, the versions they cover and your Composer setup. Enter the
          e-mail address your license was issued to and we will send you a sign-in link.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <FormAlert message={linkProblem} className="mb-4" />
        {request.isSuccess ? (
          <p className="rounded-md border p-4 text-sm" role="status" data-testid="portal-link-sent">
            {request.data.message}
          </p>
        ) : (
          <form onSubmit={submit} className="space-y-4" noValidate>
            <FormInput
              form={form}
              name="email"
              id="portal-email"
              label="E-mail address"
              type="email"
              autoComplete="email"
              placeholder="you@example.com"
              maxLength={PORTAL_EMAIL_MAX}
            />
            {errors.root?.server && (
              <p className="text-sm text-destructive" role="alert">
                {errors.root.server.message}
              </p>
            )}
            <Button type="submit" className="w-full" disabled={request.isPending || email.trim() === ''}>
              {request.isPending ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Mail aria-hidden="true" />
              )}
              Send sign-in link
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
