import { createInvitationInput, type OrganizationRole, ROLE_DESCRIPTIONS, ROLE_LABELS } from '@contract/team';
import { Send } from 'lucide-react';
import { ChoiceCard, ChoiceSet } from '../../components/choice-card';
import { DialogFormButtons, DialogHeading } from '../../components/form-dialog';
import { FormAlert } from '../../components/form-field';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { errorMessage } from '../../lib/api-error';
import { useSchemaForm } from '../../lib/schema-form';
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
  const form = useSchemaForm(createInvitationInput, {
    email: '',
    role: roles.includes('developer') ? 'developer' : (roles[0] ?? 'viewer'),
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
      <DialogHeading
        title="Invite Member"
        description="They receive an e-mail with a link that is valid for 7 days and works once."
      />
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
      <ChoiceSet legend="Role" gridClassName="grid gap-2" error={errors.role?.message}>
        {roles.map((role) => (
          <ChoiceCard
            key={role}
            input={{ type: 'radio', value: role, ...form.register('role') }}
            label={ROLE_LABELS[role]}
            description={ROLE_DESCRIPTIONS[role]}
          />
        ))}
      </ChoiceSet>
      <FormAlert message={errors.root?.server?.message} />
      <DialogFormButtons submitLabel="Send Invitation" icon={<Send />} isPending={invite.isPending} onCancel={onDone} />
    </form>
  );
}
