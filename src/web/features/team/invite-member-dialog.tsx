import {
  type CreateInvitationInput,
  createInvitationInput,
  type OrganizationRole,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
} from '@contract/team';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2, Send } from 'lucide-react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ChoiceCard } from '../../components/choice-card';
import { FormAlert } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { errorMessage } from '../../lib/api-error';
import { useInviteMember } from './team-hooks';

/** Invite member: an e-mail address and a role, each role with what it may do; the server's refusal shows inline. */
export function InviteMemberDialog({
  open,
  onOpenChange,
  roles,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The roles this person may grant (only an owner grants owner). */
  roles: readonly OrganizationRole[];
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        {/* Keyed by open so that a new dialog starts empty. */}
        <InviteForm key={String(open)} roles={roles} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function InviteForm({ roles, onDone }: { roles: readonly OrganizationRole[]; onDone: () => void }) {
  const invite = useInviteMember();
  // react-hook-form with the contract's zod schema (issue 29 item 7): the same rules the server applies, checked
  // before sending, and the server's own refusal set as the form's error.
  const form = useForm<z.input<typeof createInvitationInput>, unknown, CreateInvitationInput>({
    resolver: zodResolver(createInvitationInput),
    defaultValues: { email: '', role: roles.includes('developer') ? 'developer' : (roles[0] ?? 'viewer') },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit((input) =>
    invite
      .mutateAsync(input)
      .then(onDone, (error: unknown) =>
        form.setError('root.server', { message: errorMessage(error, 'The invitation could not be sent.') }),
      ),
  );

  return (
    <form onSubmit={submit} className="space-y-5" noValidate>
      <DialogHeader>
        <DialogTitle>Invite Member</DialogTitle>
        <DialogDescription>
          They receive an e-mail with a link that is valid for 7 days and works once.
        </DialogDescription>
      </DialogHeader>
      <div className="space-y-2">
        <Label htmlFor="invite-email">E-mail address</Label>
        <Input
          id="invite-email"
          type="email"
          placeholder="name@example.com"
          autoComplete="off"
          maxLength={254}
          aria-invalid={Boolean(errors.email)}
          {...form.register('email')}
        />
        {errors.email && <p className="text-sm text-destructive">{errors.email.message}</p>}
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Role</legend>
        <div className="grid gap-2">
          {roles.map((role) => (
            <ChoiceCard
              key={role}
              input={{ type: 'radio', value: role, ...form.register('role') }}
              label={ROLE_LABELS[role]}
              description={ROLE_DESCRIPTIONS[role]}
            />
          ))}
        </div>
        {errors.role && <p className="text-sm text-destructive">{errors.role.message}</p>}
      </fieldset>
      <FormAlert message={errors.root?.server?.message} />
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={invite.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending ? <Loader2 className="animate-spin" /> : <Send />}
          Send Invitation
        </Button>
      </DialogFooter>
    </form>
  );
}
