import { useQuery } from '@tanstack/react-query';
import { LabelledCheckbox } from '../../components/ui/checkbox';
import { getJson } from '../../lib/api-client';

type PackageOption = { id: string; packageName: string };

/**
 * Which of the seller's packages the new license covers (issue 31): the dialog's package is ticked, and ticking
 * more gives the same holder each of them in one go, with one e-mail. Shown only when there is more than one.
 */
export function PackagePicker({
  selected,
  onChange,
}: {
  selected: readonly string[];
  onChange: (packageIds: string[]) => void;
}) {
  // The same query (key and answer) as the Packages tab's list, so it is usually already loaded.
  const packages = useQuery({ queryKey: ['/api/repositories'], queryFn: getJson<PackageOption[]> });
  const options = packages.data ?? [];
  if (options.length < 2) return null;
  const toggle = (id: string, checked: boolean) =>
    onChange(checked ? [...selected, id] : selected.filter((other) => other !== id));
  return (
    <fieldset className="space-y-2" aria-label="Packages">
      <legend className="text-sm font-medium">Packages</legend>
      <p className="text-xs text-muted-foreground">
        Tick more packages to give this holder all of them at once: one license each, one e-mail.
      </p>
      <div className="grid max-h-40 gap-1.5 overflow-y-auto rounded-md border bg-background p-2 sm:grid-cols-2">
        {options.map((option) => (
          <LabelledCheckbox
            key={option.id}
            labelClassName="min-w-0"
            className="shrink-0"
            label={<span className="truncate font-mono text-xs">{option.packageName}</span>}
            checked={selected.includes(option.id)}
            onChange={(event) => toggle(option.id, event.target.checked)}
          />
        ))}
      </div>
      {selected.length === 0 && <p className="text-sm text-destructive">Choose at least one package.</p>}
    </fieldset>
  );
}
