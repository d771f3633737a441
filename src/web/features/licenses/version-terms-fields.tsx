import type { LicenseStability } from '@contract/licenses';
import { useFormContext } from 'react-hook-form';
import { LICENSE_VERSION_CONSTRAINT_MAX_LENGTH } from '../../../contract/licenses';
import { FormField, FormSelect } from '../../components/form-field';
import { Input } from '../../components/ui/input';
import { WholeNumberInput } from '../../components/whole-number-input';
import { stabilityLabels } from './lasting-license-rules';
import type { EditLicenseFormValues } from './license-forms';

// The license dialog's version terms and seats (issue 31): which versions the license covers and how many developer
// tokens its holder may have. The server checks the constraint with Composer's own parser and names the field.

const stabilityOrder: LicenseStability[] = ['dev', 'alpha', 'beta', 'RC', 'stable'];

export function VersionTermsFields({ idPrefix }: { idPrefix: string }) {
  const form = useFormContext<EditLicenseFormValues>();
  const { register, formState } = form;
  const { errors } = formState;
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <FormField
        id={`${idPrefix}-version-constraint`}
        label="Versions"
        hint="A Composer constraint, e.g. ^2.0. Empty: every version."
        error={errors.versionConstraint?.message}
      >
        {(control) => (
          <Input
            {...control}
            placeholder="Every version"
            maxLength={LICENSE_VERSION_CONSTRAINT_MAX_LENGTH}
            {...register('versionConstraint')}
          />
        )}
      </FormField>
      <FormSelect
        form={form}
        name="minimumStability"
        id={`${idPrefix}-stability`}
        label="Minimum stability"
        values={stabilityOrder}
        optionLabel={(stability) => stabilityLabels[stability]}
      />
      <FormField
        id={`${idPrefix}-seats`}
        label="Developer seats"
        hint="Developer tokens the holder may have. CI and deploy tokens take none."
        error={errors.seats?.message}
      >
        {(control) => <WholeNumberInput {...control} min={1} placeholder="Unlimited" {...register('seats')} />}
      </FormField>
    </div>
  );
}
