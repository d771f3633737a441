import { closeAccountInput, SALES_RECORD_RETENTION_YEARS } from '@contract/account';
import { CLIENT_ROUTES } from '@contract/client-routes';
import { Download, Loader2, TriangleAlert } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { FormInput } from '../../components/form-field';
import { PageHeading } from '../../components/page-heading';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format-date';
import { usePermission } from '../../lib/permissions';
import { useSchemaForm } from '../../lib/schema-form';
import { LeakedTokensCard } from './leaked-tokens-card';
import { ACCOUNT_EXPORT_PATH, useAccountStatus, useCloseAccount } from './settings-hooks';

/**
 * /settings (issue 35): "Your data" downloads the organisation's export (a .tar.gz of data.json and a CSV per list);
 * "Close account" closes it once the slug is typed, saying what happens and when the personal data is erased. A
 * closed account signing in lands here and sees it is closed, with the export available until the erase date.
 */
export function SettingsPage() {
  const status = useAccountStatus();
  const manage = usePermission('organization:manage');
  const closeAccount = useCloseAccount();
  const [, navigate] = useLocation();
  // react-hook-form over the contract's schema (issue 29 item 7); Close account waits for the slug itself.
  const form = useSchemaForm(closeAccountInput, { confirmSlug: '' });
  const typed = form.watch('confirmSlug');
  const account = status.data;
  const retentionDays = account?.retentionDays ?? 30;
  const eraseDate = account?.eraseAfter
    ? formatDate(account.eraseAfter)
    : formatDate(new Date(Date.now() + retentionDays * 86_400_000).toISOString());

  return (
    <div className="container mx-auto max-w-3xl space-y-8 px-4 py-10">
      <PageHeading title="Settings" className="space-y-1">
        Your organisation's data, and closing its account.
      </PageHeading>

      {account?.closedAt && (
        <div
          role="status"
          data-testid="account-closed"
          className="flex gap-3 rounded-md border border-amber-500/50 bg-amber-500/10 p-4 text-sm"
        >
          <TriangleAlert className="size-5 shrink-0 text-amber-600" />
          <p>
            This account was closed on {formatDate(account.closedAt)}. Its licenses, tokens and sales have ended. You
            can download its data until {eraseDate}; then its personal data is erased.
          </p>
        </div>
      )}

      <Card>
        <CardHeader>
          <CardTitle>Your data</CardTitle>
          <CardDescription>
            Everything of this organisation in one archive: packages and versions, licenses and holders, prices and
            sales, downloads, the audit trail and webhook endpoints, as data.json and a CSV file per list. Tokens and
            secrets are never part of it.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {manage.allowed ? (
            <Button asChild>
              <a href={ACCOUNT_EXPORT_PATH} download data-testid="download-export">
                <Download /> Download export
              </a>
            </Button>
          ) : (
            <Button disabled title={manage.reason}>
              <Download /> Download export
            </Button>
          )}
        </CardContent>
      </Card>

      <LeakedTokensCard />

      {!account?.closedAt && (
        <Card className="border-destructive/50">
          <CardHeader>
            <CardTitle>Close account</CardTitle>
            <CardDescription>
              Closing revokes every license and every holder's Composer token, deletes the API tokens, disables the
              webhooks, stops all sales and signs everyone out, at once. You can still sign in and download the export
              for {retentionDays} days (until {eraseDate}); then the personal data (holders' and buyers' e-mail
              addresses, download networks, your e-mail and name, the brand's logo) is erased. Sales records stay for{' '}
              {SALES_RECORD_RETENTION_YEARS} years, as tax law requires. See the{' '}
              <Link href={CLIENT_ROUTES.privacy} className="underline">
                privacy policy
              </Link>
              .
            </CardDescription>
          </CardHeader>
          <CardContent>
            <form
              className="space-y-3"
              noValidate
              onSubmit={form.handleSubmit((input) =>
                closeAccount.mutate(input, {
                  onSuccess: () => {
                    toast({
                      title: 'Account Closed',
                      description: `Sign in again to download your data until ${eraseDate}.`,
                    });
                    navigate(CLIENT_ROUTES.landing);
                  },
                  onError: (error) =>
                    toast({
                      variant: 'destructive',
                      title: 'The account was not closed',
                      description: errorMessage(error, 'Please try again in a moment.'),
                    }),
                }),
              )}
            >
              <FormInput
                form={form}
                name="confirmSlug"
                id="confirm-slug"
                label={
                  <>
                    Type <strong>{account?.slug ?? '…'}</strong> to confirm
                  </>
                }
                fieldClassName="space-y-3"
                autoComplete="off"
                disabled={!manage.allowed}
              />
              <Button
                type="submit"
                variant="destructive"
                disabled={!manage.allowed || !account || typed.trim() !== account.slug || closeAccount.isPending}
                title={manage.reason}
              >
                {closeAccount.isPending && <Loader2 className="animate-spin" />}
                Close account
              </Button>
            </form>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
