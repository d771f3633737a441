import type { GrantEndMode } from '@contract/licenses';
import { useFormContext } from 'react-hook-form';
import { LICENSE_DOWNLOAD_LIMIT_MAX, LICENSE_NOTE_MAX_LENGTH } from '../../../contract/licenses';
import { FormField } from '../../components/form-field';
import { Input } from '../../components/ui/input';
import { NativeSelect } from '../../components/ui/native-select';
import { Textarea } from '../../components/ui/textarea';
import { WholeNumberInput } from '../../components/whole-number-input';
import { endModeHints, endModeLabels, minimumExpiryDay } from './lasting-license-rules';
import type { EditLicenseFormValues } from './license-forms';
import { VersionTermsFields } from './version-terms-fields';

/**
 * A lasting license's terms (issue 16), in the issue and the edit form alike: expiry, download limit, what ends at
 * expiry, the version terms and a note. It reads the enclosing react-hook-form (FormProvider): both forms hold
 * these fields under the same names.
 */
export function LicenseTermsFields({ idPrefix }: { idPrefix: string }) {
  const { register, watch, formState } = useFormContext<EditLicenseFormValues>();
  const { errors } = formState;
  const endMode = watch('endMode');
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id={`${idPrefix}-expires`}
          label="Expires on"
          hint="Empty: never expires. Otherwise it ends at the end of that day."
          error={errors.expiresOn?.message}
        >
          {(control) => (
            <Input {...control} type="date" min={minimumExpiryDay(new Date())} {...register('expiresOn')} />
          )}
        </FormField>
        <FormField
          id={`${idPrefix}-download-limit`}
          label="Download limit"
          hint="Empty: unlimited downloads."
          error={errors.downloadLimit?.message}
        >
          {(control) => (
            <WholeNumberInput
              {...control}
              min={1}
              max={LICENSE_DOWNLOAD_LIMIT_MAX}
              placeholder="Unlimited"
              {...register('downloadLimit')}
            />
          )}
        </FormField>
      </div>
      <FormField id={`${idPrefix}-end-mode`} label="At expiry" hint={endModeHints[endMode]}>
        {(control) => (
          <NativeSelect {...control} {...register('endMode')}>
            {(Object.keys(endModeLabels) as GrantEndMode[]).map((mode) => (
              <option key={mode} value={mode}>
                {endModeLabels[mode]}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      <VersionTermsFields idPrefix={idPrefix} />
      <FormField id={`${idPrefix}-note`} label="Note (optional)" error={errors.note?.message}>
        {(control) => (
          <Textarea
            {...control}
            placeholder="e.g. Invoice 2026-104"
            maxLength={LICENSE_NOTE_MAX_LENGTH}
            rows={2}
            {...register('note')}
          />
        )}
      </FormField>
    </>
  );
}
