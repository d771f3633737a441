import { AlertTriangle, Info, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { Button } from './ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './ui/dialog';

export type ConfirmVariant = 'default' | 'destructive' | 'warning' | 'info';

const variantStyle: Record<ConfirmVariant, { icon: ReactNode; iconClass: string; button: 'default' | 'destructive' }> =
  {
    default: { icon: null, iconClass: '', button: 'default' },
    destructive: { icon: <Trash2 />, iconClass: 'bg-destructive/10 text-destructive', button: 'destructive' },
    warning: { icon: <AlertTriangle />, iconClass: 'bg-amber-500/10 text-amber-600', button: 'default' },
    info: { icon: <Info />, iconClass: 'bg-blue-500/10 text-blue-600', button: 'default' },
  };

/** A yes/no question before an action; `isPending` keeps it open with its buttons disabled. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmText = 'Confirm',
  cancelText = 'Cancel',
  variant = 'default',
  isPending = false,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  confirmText?: string;
  cancelText?: string;
  variant?: ConfirmVariant;
  isPending?: boolean;
  onConfirm: () => void;
}) {
  const style = variantStyle[variant];
  return (
    <Dialog open={open} onOpenChange={(next) => !isPending && onOpenChange(next)}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <div className="flex items-center gap-3">
            {style.icon && (
              <span
                className={cn('flex size-9 items-center justify-center rounded-full [&_svg]:size-5', style.iconClass)}
              >
                {style.icon}
              </span>
            )}
            <DialogTitle>{title}</DialogTitle>
          </div>
          {description && <DialogDescription className="pt-2">{description}</DialogDescription>}
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={isPending}>
            {cancelText}
          </Button>
          <Button variant={style.button} onClick={onConfirm} disabled={isPending}>
            {confirmText}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
