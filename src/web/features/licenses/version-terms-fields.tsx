import type { LicenseStability } from '@contract/licenses';
import { LICENSE_VERSION_CONSTRAINT_MAX_LENGTH } from '../../../contract/licenses';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { type LicenseTermsForm, stabilityLabels, type TermsProblems } from './lasting-license-rules';

// The license dialog's version terms and seats (issue 31): which versions the license covers and how many developer
// tokens its holder may have. The server checks the constraint with Composer's own parser and names the field.

const stabilityOrder: LicenseStability[] = ['dev', 'alpha', 'beta', 'RC', 'stable'];

export function VersionTermsFields({
  idPrefix,
  terms,
  problems,
  set,
}: {
  idPrefix: string;
  terms: LicenseTermsForm;
  problems: TermsProblems;
  set: <Key extends keyof LicenseTermsForm>(key: Key, value: LicenseTermsForm[Key]) => void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <div className="space-y-2">
        <Label htmlFor={`${idPrefix}-version-constraint`}>Versions</Label>
        <Input
          id={`${idPrefix}-version-constraint`}
          placeholder="Every version"
          maxLength={LICENSE_VERSION_CONSTRAINT_MAX_LENGTH}
          value={terms.versionConstraint}
          onChange={(event) => set('versionConstraint', event.target.value)}
          aria-invalid={Boolean(problems.versionConstraint)}
          aria-describedby={`${idPrefix}-version-constraint-hint`}
        />
        <p
          id={`${idPrefix}-version-constraint-hint`}
          className={problems.versionConstraint ? 'text-sm text-destructive' : 'text-xs text-muted-foreground'}
        >
          {problems.versionConstraint ?? 'A Composer constraint, e.g. ^2.0. Empty: every version.'}
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${idPrefix}-stability`}>Minimum stability</Label>
        <NativeSelect
          id={`${idPrefix}-stability`}
          value={terms.minimumStability}
          onChange={(event) => set('minimumStability', event.target.value as LicenseStability)}
        >
          {stabilityOrder.map((stability) => (
            <option key={stability} value={stability}>
              {stabilityLabels[stability]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${idPrefix}-seats`}>Developer seats</Label>
        <Input
          id={`${idPrefix}-seats`}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          placeholder="Unlimited"
          value={terms.seats}
          onChange={(event) => set('seats', event.target.value)}
          aria-invalid={Boolean(problems.seats)}
          aria-describedby={`${idPrefix}-seats-hint`}
        />
        <p
          id={`${idPrefix}-seats-hint`}
          className={problems.seats ? 'text-sm text-destructive' : 'text-xs text-muted-foreground'}
        >
          {problems.seats ?? 'Developer tokens the holder may have. CI and deploy tokens take none.'}
        </p>
      </div>
    </div>
  );
}
