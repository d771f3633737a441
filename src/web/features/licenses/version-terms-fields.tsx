import type { LicenseStability } from '@contract/licenses';
import { useFormContext } from 'react-hook-form';
import { LICENSE_VERSION_CONSTRAINT_MAX_LENGTH } from '../../../contract/licenses';
import { FormField } from '../../components/form-field';
import { Input } from '../../components/ui/input';
import { NativeSelect, SelectOptions } from '../../components/ui/native-select';
import { WholeNumberInput } from '../../components/whole-number-input';
import { stabilityLabels } from './lasting-license-rules';
import type { EditLicenseFormValues } from './license-forms';

// The license dialog's version terms and seats (issue 31): which versions the license covers and how many developer
// tokens its holder may have. The server checks the constraint with Composer's own parser and names the field.

const stabilityOrder: LicenseStability[] = ['dev', 'alpha', 'beta', 'RC', 'stable'];

export function VersionTermsFields({ idPrefix }: { idPrefix: string }) {
  const { register, formState } = useFormContext<EditLicenseFormValues>();
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
      <FormField id={`${idPrefix}-stability`} label="Minimum stability">
        {(control) => (
          <NativeSelect {...control} {...register('minimumStability')}>
            <SelectOptions values={stabilityOrder} label={(stability) => stabilityLabels[stability]} />
          </NativeSelect>
        )}
      </FormField>
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
