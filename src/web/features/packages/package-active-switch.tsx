import type { ReactNode } from 'react';
import { type Control, Controller } from 'react-hook-form';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';

/** The Active switch of a package's details form (add or edit), with what being active means there. */
export function PackageActiveSwitch<Output>({
  id,
  control,
  hint,
}: {
  id: string;
  control: Control<{ packageName: string; description: string; isActive: boolean }, unknown, Output>;
  hint: ReactNode;
}) {
  return (
    <div className="flex items-center justify-between gap-4 rounded-md border p-3">
      <div className="space-y-0.5">
        <Label htmlFor={id}>Active</Label>
        <p className="text-xs text-muted-foreground">{hint}</p>
      </div>
      <Controller
        control={control}
        name="isActive"
        render={({ field }) => <Switch id={id} checked={field.value} onCheckedChange={field.onChange} />}
      />
    </div>
  );
}
