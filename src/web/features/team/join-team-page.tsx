import { CLIENT_ROUTES } from '@contract/client-routes';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '@contract/team';
import { CheckCircle2, Loader2, Users } from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import { FailureAlert } from '../../components/load-error';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardIconTitle } from '../../components/ui/card';
import { errorMessage, isApiRequestError } from '../../lib/api-error';
import { formatDateTime } from '../../lib/format-date';
import { useAcceptInvitation, useInvitationPreview } from './team-hooks';

/**
 * /team/join?token= (issue 33): the invitation e-mail's link. Shows which organisation invites whom with which role;
 * accepting signs the invitee in (or moves their session) into that organisation and opens its Dashboard.
 */
export function JoinTeamPage() {
  const token = new URLSearchParams(useSearch()).get('token')?.trim() ?? '';
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation();
  const [, navigate] = useLocation();

  const problem = !token
    ? 'This invitation link is not valid.'
    : preview.error
      ? errorMessage(preview.error, 'This invitation link is not valid.')
      : undefined;
  const suggestion = isApiRequestError(preview.error) ? preview.error.suggestion : undefined;

  return (
    <div className="container mx-auto flex justify-center px-4 py-16">
      <Card className="w-full max-w-lg">
        <CardHeader>
          <CardIconTitle icon={Users}>Join a Team</CardIconTitle>
          {preview.data && (
            <CardDescription>
              <span className="font-medium text-foreground">{preview.data.organizationName}</span> invites you to work
              with them on Packgate.
            </CardDescription>
          )}
        </CardHeader>
        <CardContent className="space-y-4">
          {preview.isLoading ? (
            <Loader2 className="size-5 animate-spin text-muted-foreground" aria-label="Loading" />
          ) : problem ? (
            <div role="alert" className="space-y-1">
              <p className="text-sm font-medium text-destructive">{problem}</p>
              {suggestion && <p className="text-sm text-muted-foreground">{suggestion}</p>}
            </div>
          ) : (
            preview.data && (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                <dt className="text-muted-foreground">Organisation</dt>
                <dd className="font-medium" data-testid="join-organization">
                  {preview.data.organizationName}
                </dd>
                <dt className="text-muted-foreground">Role</dt>
                <dd>
                  <span className="font-medium" data-testid="join-role">
                    {ROLE_LABELS[preview.data.role]}
                  </span>
                  <span className="block text-xs text-muted-foreground">{ROLE_DESCRIPTIONS[preview.data.role]}</span>
                </dd>
                <dt className="text-muted-foreground">E-mail</dt>
                <dd>{preview.data.email}</dd>
                <dt className="text-muted-foreground">Expires</dt>
                <dd>{formatDateTime(preview.data.expiresAt)}</dd>
              </dl>
            )
          )}
          <FailureAlert error={accept.error} fallback="The invitation could not be accepted." />
        </CardContent>
        {preview.data && !problem && (
          <CardFooter>
            <Button
              className="w-full"
              disabled={accept.isPending}
              onClick={() =>
                accept.mutate(token, { onSuccess: () => navigate(CLIENT_ROUTES.dashboard, { replace: true }) })
              }
            >
              {accept.isPending ? <Loader2 className="animate-spin" /> : <CheckCircle2 />}
              Accept Invitation
            </Button>
          </CardFooter>
        )}
      </Card>
    </div>
  );
}
