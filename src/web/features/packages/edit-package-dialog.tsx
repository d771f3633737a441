import { Loader2 } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
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
import { Switch } from '../../components/ui/switch';
import { Textarea } from '../../components/ui/textarea';
import { type Package, useUpdatePackage } from './package-hooks';
import { EDIT_PACKAGE_NAME_REQUIRED } from './package-rules';

/** Edit Package (spec seller-app §2, §4, §5): name, description and the active toggle. */
export function EditPackageDialog({ pkg, onClose }: { pkg: Package | undefined; onClose: () => void }) {
  const update = useUpdatePackage();
  const [packageName, setPackageName] = useState('');
  const [description, setDescription] = useState('');
  const [isActive, setIsActive] = useState(true);
  const [nameError, setNameError] = useState<string>();

  useEffect(() => {
    if (!pkg) return;
    setPackageName(pkg.packageName);
    setDescription(pkg.description ?? '');
    setIsActive(pkg.isActive);
    setNameError(undefined);
  }, [pkg]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pkg) return;
    if (!packageName.trim()) {
      setNameError(EDIT_PACKAGE_NAME_REQUIRED);
      return;
    }
    update.mutate(
      { id: pkg.id, input: { packageName: packageName.trim(), description: description.trim() || null, isActive } },
      { onSuccess: onClose },
    );
  };

  return (
    <Dialog open={Boolean(pkg)} onOpenChange={(open) => !open && !update.isPending && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Edit Package</DialogTitle>
          <DialogDescription>
            Changes apply to every license holder at once. The repository stays {pkg?.fullName}.
          </DialogDescription>
        </DialogHeader>
        <form id="edit-package-form" onSubmit={submit} className="space-y-4" noValidate>
          <div className="space-y-2">
            <Label htmlFor="edit-package-name">Package Name *</Label>
            <Input
              id="edit-package-name"
              className="font-mono"
              value={packageName}
              onChange={(event) => {
                setPackageName(event.target.value);
                setNameError(undefined);
              }}
              aria-invalid={Boolean(nameError)}
              aria-describedby={nameError ? 'edit-package-name-error' : undefined}
              autoComplete="off"
            />
            {nameError && (
              <p id="edit-package-name-error" className="text-sm text-destructive">
                {nameError}
              </p>
            )}
          </div>
          <div className="space-y-2">
            <Label htmlFor="edit-package-description">Description</Label>
            <Textarea
              id="edit-package-description"
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              rows={3}
            />
          </div>
          <div className="flex items-center justify-between gap-4 rounded-md border p-3">
            <div className="space-y-0.5">
              <Label htmlFor="edit-package-active">Active</Label>
              <p className="text-xs text-muted-foreground">
                An inactive package disappears from every license holder's repository until it is active again.
              </p>
            </div>
            <Switch id="edit-package-active" checked={isActive} onCheckedChange={setIsActive} />
          </div>
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="edit-package-form" disabled={update.isPending}>
            {update.isPending && <Loader2 className="animate-spin" />}
            Save Changes
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
