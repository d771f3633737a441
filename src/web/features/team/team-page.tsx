import {
  ORGANIZATION_ROLES,
  type OrganizationRole,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
  type TeamInvitation,
  type TeamMember,
} from '@contract/team';
import { Loader2, RefreshCw, Trash2, UserPlus, Users, X } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeading } from '../../components/page-heading';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle, CardTitle } from '../../components/ui/card';
import { NativeSelect, SelectOptions } from '../../components/ui/native-select';
import { errorMessage } from '../../lib/api-error';
import { formatDate, formatDateTime } from '../../lib/format-date';
import { usePermission } from '../../lib/permissions';
import { InviteMemberDialog } from './invite-member-dialog';
import {
  useChangeMemberRole,
  useRemoveMember,
  useResendInvitation,
  useTeamInvitations,
  useTeamMembers,
  useWithdrawInvitation,
} from './team-hooks';

/** "3 of 5 members", or "3 members" on a plan without a limit. */
export function memberCountText(count: number, limit: number | null): string {
  const noun = (n: number) => (n === 1 ? 'member' : 'members');
  return limit === null ? `${count} ${noun(count)}` : `${count} of ${limit} ${noun(limit)}`;
}

/** /team (issue 33): the organisation's members and their roles, inviting, and pending invitations. */
export function TeamPage() {
  const members = useTeamMembers();
  const manage = usePermission('team:manage');
  const invitations = useTeamInvitations(manage.allowed);
  const [inviting, setInviting] = useState(false);
  const yourRole = members.data?.yourRole;
  // Only an owner grants or changes the owner role (the server refuses it to anyone else).
  const grantable = ORGANIZATION_ROLES.filter((role) => role !== 'owner' || yourRole === 'owner');
  const count = members.data?.members.length ?? 0;
  const limit = members.data?.limit ?? null;

  return (
    <div className="container mx-auto space-y-8 px-4 py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageHeading title="Team" className="space-y-1">
          The people who work on this organisation, and what each of them may do.
        </PageHeading>
        <Button onClick={() => setInviting(true)} disabled={!manage.allowed} title={manage.reason}>
          <UserPlus /> Invite Member
        </Button>
      </div>

      <Card>
        <CardHeader>
          <CardIconTitle icon={Users}>Members</CardIconTitle>
          {members.data && (
            <CardDescription data-testid="team-member-count">{memberCountText(count, limit)}</CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {members.isLoading ? (
            <Loader2 className="size-5 animate-spin text-muted-foreground" aria-label="Loading" />
          ) : members.error ? (
            <p className="text-sm text-destructive">
              {errorMessage(members.error, 'The members could not be loaded.')}
            </p>
          ) : (
            <MembersTable members={members.data?.members ?? []} roles={grantable} manage={manage} />
          )}
        </CardContent>
      </Card>

      {manage.allowed && (
        <Card>
          <CardHeader>
            <CardTitle>Pending Invitations</CardTitle>
            <CardDescription>Each link works once and expires 7 days after it was sent.</CardDescription>
          </CardHeader>
          <CardContent>
            {invitations.isLoading ? (
              <Loader2 className="size-5 animate-spin text-muted-foreground" aria-label="Loading" />
            ) : (invitations.data?.invitations.length ?? 0) === 0 ? (
              <p className="text-sm text-muted-foreground">No pending invitations.</p>
            ) : (
              <InvitationsTable invitations={invitations.data?.invitations ?? []} />
            )}
          </CardContent>
        </Card>
      )}

      <Card>
        <CardHeader>
          <CardTitle>Roles</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            {ORGANIZATION_ROLES.map((role) => (
              <div key={role}>
                <dt className="font-medium">{ROLE_LABELS[role]}</dt>
                <dd className="text-muted-foreground">{ROLE_DESCRIPTIONS[role]}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>

      <InviteMemberDialog open={inviting} onOpenChange={setInviting} roles={grantable} />
    </div>
  );
}

function MembersTable({
  members,
  roles,
  manage,
}: {
  members: TeamMember[];
  roles: readonly OrganizationRole[];
  manage: { allowed: boolean; reason: string | undefined };
}) {
  const changeRole = useChangeMemberRole();
  const remove = useRemoveMember();
  const [removing, setRemoving] = useState<TeamMember>();

  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <ColumnHeads titles={['Member', 'Role', 'Joined']} />
        <tbody>
          {members.map((member) => {
            const label = member.email ?? member.displayName ?? 'Member';
            // An owner's role can be changed only by an owner; the list of choices always holds the current role.
            const choices = roles.includes(member.role) ? roles : [member.role, ...roles];
            const canChange = manage.allowed && roles.includes(member.role);
            return (
              <tr key={member.id} className="border-b last:border-0" data-testid={`team-member-${label}`}>
                <td className="py-3 pr-4">
                  <div className="font-medium">
                    {member.displayName && member.displayName !== member.email ? member.displayName : label}
                    {member.isYou && (
                      <Badge variant="secondary" className="ml-2">
                        You
                      </Badge>
                    )}
                  </div>
                  {member.displayName && member.email && member.displayName !== member.email && (
                    <div className="text-xs text-muted-foreground">{member.email}</div>
                  )}
                </td>
                <td className="py-3 pr-4">
                  {manage.allowed ? (
                    <NativeSelect
                      aria-label={`Role of ${label}`}
                      className="w-36"
                      value={member.role}
                      disabled={!canChange || changeRole.isPending}
                      title={canChange ? ROLE_DESCRIPTIONS[member.role] : 'Only an owner can change an owner.'}
                      onChange={(event) =>
                        changeRole.mutate({ member, input: { role: event.target.value as OrganizationRole } })
                      }
                    >
                      <SelectOptions values={choices} label={(role) => ROLE_LABELS[role]} />
                    </NativeSelect>
                  ) : (
                    <span title={ROLE_DESCRIPTIONS[member.role]}>{ROLE_LABELS[member.role]}</span>
                  )}
                </td>
                <td className="py-3 pr-4 text-muted-foreground">{formatDate(member.joinedAt)}</td>
                <td className="py-3 text-right">
                  {manage.allowed && (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Remove ${label}`}
                      disabled={member.isFounder}
                      title={
                        member.isFounder ? 'The person who founded the organisation cannot be removed.' : undefined
                      }
                      onClick={() => setRemoving(member)}
                    >
                      <Trash2 /> Remove
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ConfirmDialog
        open={Boolean(removing)}
        onOpenChange={(open) => !open && setRemoving(undefined)}
        title="Remove Member"
        description={
          removing &&
          `${removing.email ?? 'This member'} loses access to this organisation at once: their sessions here and the API tokens they made stop working.`
        }
        confirmText="Remove"
        variant="destructive"
        isPending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing, { onSettled: () => setRemoving(undefined) })}
      />
    </div>
  );
}

/** A table's header row: a column a title, then the actions column, named for screen readers only. */
function ColumnHeads({ titles }: { titles: string[] }) {
  return (
    <thead className="text-left text-muted-foreground">
      <tr className="border-b">
        {titles.map((title) => (
          <th key={title} className="py-2 pr-4 font-medium">
            {title}
          </th>
        ))}
        <th className="py-2 font-medium">
          <span className="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

function InvitationsTable({ invitations }: { invitations: TeamInvitation[] }) {
  const resend = useResendInvitation();
  const withdraw = useWithdrawInvitation();
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <ColumnHeads titles={['E-mail', 'Role', 'Sent', 'Expires']} />
        <tbody>
          {invitations.map((invitation) => (
            <tr
              key={invitation.id}
              className="border-b last:border-0"
              data-testid={`team-invitation-${invitation.email}`}
            >
              <td className="py-3 pr-4 font-medium">{invitation.email}</td>
              <td className="py-3 pr-4">{ROLE_LABELS[invitation.role]}</td>
              <td className="py-3 pr-4 text-muted-foreground">{formatDateTime(invitation.lastSentAt)}</td>
              <td className="py-3 pr-4 text-muted-foreground">{formatDateTime(invitation.expiresAt)}</td>
              <td className="flex justify-end gap-1 py-3">
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Resend the invitation to ${invitation.email}`}
                  disabled={resend.isPending}
                  onClick={() => resend.mutate(invitation)}
                >
                  <RefreshCw /> Resend
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Withdraw the invitation to ${invitation.email}`}
                  disabled={withdraw.isPending}
                  onClick={() => withdraw.mutate(invitation)}
                >
                  <X /> Withdraw
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
