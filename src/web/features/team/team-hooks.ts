import type {
  AcceptInvitationResponse,
  CreateInvitationInput,
  InvitationPreview,
  OrganizationSummary,
  Organizations,
  TeamInvitation,
  TeamInvitations,
  TeamMember,
  TeamMembers,
  UpdateMemberInput,
} from '@contract/team';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { failureToast } from '../../components/failure-toast';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';

const MEMBERS_PATH = '/api/team/members';
const INVITATIONS_PATH = '/api/team/invitations';
const ORGANIZATIONS_PATH = '/api/organizations';
const memberPath = (id: string) => `${MEMBERS_PATH}/${encodeURIComponent(id)}`;
const invitationPath = (id: string) => `${INVITATIONS_PATH}/${encodeURIComponent(id)}`;

export const teamMembersQuery = () =>
  queryOptions({ queryKey: [MEMBERS_PATH], queryFn: getJson<TeamMembers>, refetchOnMount: 'always' });
export const useTeamMembers = () => useQuery(teamMembersQuery());

/** Pending invitations; only a role that manages the team may read them. */
export const teamInvitationsQuery = () =>
  queryOptions({ queryKey: [INVITATIONS_PATH], queryFn: getJson<TeamInvitations>, refetchOnMount: 'always' });
export const useTeamInvitations = (enabled: boolean) => useQuery({ ...teamInvitationsQuery(), enabled });

export const organizationsQuery = () =>
  queryOptions({ queryKey: [ORGANIZATIONS_PATH], queryFn: getJson<Organizations> });
export const useOrganizations = (enabled = true) => useQuery({ ...organizationsQuery(), enabled });

/** The invitation behind a link; changes nothing, needs no session. */
export const invitationPreviewQuery = (token: string) =>
  queryOptions({
    queryKey: [`${INVITATIONS_PATH}/preview?token=${encodeURIComponent(token)}`],
    queryFn: getJson<InvitationPreview>,
    retry: false,
  });
export const useInvitationPreview = (token: string) =>
  useQuery({ ...invitationPreviewQuery(token), enabled: token.length > 0 });

function useInvalidateTeam() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: teamMembersQuery().queryKey }),
      queryClient.invalidateQueries({ queryKey: teamInvitationsQuery().queryKey }),
    ]);
}

/** Sends the invitation e-mail; the dialog shows the server's refusal (already a member, the plan's limit) inline. */
export function useInviteMember() {
  const invalidate = useInvalidateTeam();
  return useMutation({
    mutationFn: (input: CreateInvitationInput) => apiRequest<TeamInvitation>('POST', INVITATIONS_PATH, input),
    onSuccess: (invitation) => {
      toast({ title: 'Invitation Sent', description: `${invitation.email} has 7 days to accept.` });
      return invalidate();
    },
  });
}

export function useChangeMemberRole() {
  const invalidate = useInvalidateTeam();
  return useMutation({
    mutationFn: ({ member, input }: { member: TeamMember; input: UpdateMemberInput }) =>
      apiRequest<TeamMember>('PATCH', memberPath(member.id), input),
    onSuccess: (member) => {
      toast({
        title: 'Role Changed',
        description: `${member.email ?? member.displayName ?? 'The member'} is now ${member.role}.`,
      });
      return invalidate();
    },
    onError: (error) => {
      failureToast('Failed to change role', error);
      return invalidate();
    },
  });
}

export function useRemoveMember() {
  const invalidate = useInvalidateTeam();
  return useMutation({
    mutationFn: (member: TeamMember) => apiRequest<unknown>('DELETE', memberPath(member.id)),
    onSuccess: (_answer, member) => {
      toast({
        title: 'Member Removed',
        description: `${member.email ?? 'The member'} is signed out of this organisation.`,
      });
      return invalidate();
    },
    onError: (error) => failureToast('Failed to remove member', error),
  });
}

export function useResendInvitation() {
  const invalidate = useInvalidateTeam();
  return useMutation({
    mutationFn: (invitation: TeamInvitation) =>
      apiRequest<TeamInvitation>('POST', `${invitationPath(invitation.id)}/resend`),
    onSuccess: (invitation) => {
      toast({
        title: 'Invitation Resent',
        description: `A new link went to ${invitation.email}; the old one no longer works.`,
      });
      return invalidate();
    },
    onError: (error) => failureToast('Failed to resend invitation', error),
  });
}

export function useWithdrawInvitation() {
  const invalidate = useInvalidateTeam();
  return useMutation({
    mutationFn: (invitation: TeamInvitation) => apiRequest<unknown>('DELETE', invitationPath(invitation.id)),
    onSuccess: (_answer, invitation) => {
      toast({ title: 'Invitation Withdrawn', description: `The link sent to ${invitation.email} no longer works.` });
      return invalidate();
    },
    onError: (error) => failureToast('Failed to withdraw invitation', error),
  });
}

/**
 * Accepting signs the invitee in (or moves their session) into the organisation: everything cached belonged to the
 * previous one, so the cache is cleared before the Dashboard loads.
 */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      apiRequest<AcceptInvitationResponse>('POST', `${INVITATIONS_PATH}/accept`, { token }),
    onSuccess: () => queryClient.resetQueries(),
  });
}

/**
 * Switches the session's organisation; every cached answer was the previous organisation's, so all are reset.
 * `onSwitched` runs here rather than in `mutate`'s options: the menu that called it has closed by then.
 */
export function useSwitchOrganization(onSwitched: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (organizationId: string) =>
      apiRequest<OrganizationSummary>('POST', `${ORGANIZATIONS_PATH}/current`, { organizationId }),
    onSuccess: async (organization) => {
      onSwitched();
      await queryClient.resetQueries();
      toast({ title: 'Organisation Switched', description: `You now work in ${organization.name}.` });
    },
    onError: (error) => failureToast('Failed to switch organisation', error),
  });
}
