import {
  type CreatedHolderToken,
  type HolderToken,
  ROTATION_OVERLAP_DEFAULT_HOURS,
  ROTATION_OVERLAP_MAX_HOURS,
} from '@contract/holder-tokens';
import { DialogFormButtons, DialogHeading } from '@web/components/form-dialog';
import { FormAlert, FormField } from '@web/components/form-field';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { WholeNumberInput } from '@web/components/whole-number-input';
import { errorMessage } from '@web/lib/api-error';
import { useSchemaForm } from '@web/lib/schema-form';
import { RefreshCw } from 'lucide-react';
import { z } from 'zod';
import { useRotateHolderToken } from './holder-tokens-hooks';

// Rotating a token (issue 32 item 2): the holder chooses how long the old token keeps working, 0 to 168 hours as
// API v1 takes, 24 unless changed, so a pipeline switched in minutes and a fleet switched over a week both fit.

const overlapMessage = `Enter whole hours from 0 to ${ROTATION_OVERLAP_MAX_HOURS}.`;
const rotateForm = z.object({
  overlapHours: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, overlapMessage)
    .transform(Number)
    .refine((hours) => hours <= ROTATION_OVERLAP_MAX_HOURS, overlapMessage),
});

export function RotateTokenDialog({
  basePath,
  token,
  open,
  onOpenChange,
  onRotated,
}: {
  basePath: string;
  token: HolderToken;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRotated: (created: CreatedHolderToken) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        {/* Keyed by open so that a new dialog starts at the default overlap. */}
        <RotateForm
          key={String(open)}
          basePath={basePath}
          token={token}
          onDone={() => onOpenChange(false)}
          onRotated={onRotated}
        />
      </DialogContent>
    </Dialog>
  );
}

function RotateForm({
  basePath,
  token,
  onDone,
  onRotated,
}: {
  basePath: string;
  token: HolderToken;
  onDone: () => void;
  onRotated: (created: CreatedHolderToken) => void;
}) {
  const rotate = useRotateHolderToken(basePath);
  const form = useSchemaForm(rotateForm, { overlapHours: String(ROTATION_OVERLAP_DEFAULT_HOURS) });
  const { errors } = form.formState;
  const submit = form.handleSubmit(({ overlapHours }) =>
    rotate.mutateAsync({ tokenId: token.id, overlapHours }).then(
      (created) => {
        onRotated(created);
        onDone();
      },
      (error: unknown) =>
        form.setError('root.server', { message: errorMessage(error, 'The token could not be changed.') }),
    ),
  );
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <DialogHeading
        title={<>Rotate “{token.name}”?</>}
        descriptionClassName="pt-2"
        description="You get a new token with the same name. The current one keeps working for the hours you choose, so you can switch every machine to the new one."
      />
      <FormField
        id="rotate-overlap-hours"
        label="Old token keeps working for (hours)"
        hint={`0 stops it at once; at most ${ROTATION_OVERLAP_MAX_HOURS} (a week).`}
        error={errors.overlapHours?.message}
      >
        {(control) => (
          <WholeNumberInput {...control} min={0} max={ROTATION_OVERLAP_MAX_HOURS} {...form.register('overlapHours')} />
        )}
      </FormField>
      <FormAlert message={errors.root?.server?.message} />
      <DialogFormButtons
        submitLabel="Rotate"
        icon={<RefreshCw aria-hidden="true" />}
        isPending={rotate.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
