import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './ui/dialog';

/** A dialog's title with the sentence under it that says what the dialog is for. */
export function DialogHeading({
  title,
  description,
  descriptionClassName,
}: {
  title: ReactNode;
  description: ReactNode;
  descriptionClassName?: string;
}) {
  return (
    <DialogHeader>
      <DialogTitle>{title}</DialogTitle>
      <DialogDescription className={descriptionClassName}>{description}</DialogDescription>
    </DialogHeader>
  );
}

/** A dialog that opens with its heading, the body following it in the same frame; Escape, the overlay and × close it. */
export function TitledDialog({
  open,
  onClose,
  className = 'max-w-3xl',
  title,
  description,
  children,
}: {
  open: boolean;
  onClose: () => void;
  /** The frame's classes: its width, the wide frame of a dialog about one package unless given. */
  className?: string;
  title: ReactNode;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className={className}>
        <DialogHeading title={title} description={description} />
        {children}
      </DialogContent>
    </Dialog>
  );
}

/**
 * A form dialog's footer: Cancel, then the submit button, which shows a spinner in place of its icon while the form
 * is being sent. Both are disabled while it is sent, unless the dialog may be left then (`canCancelWhilePending`).
 */
export function DialogFormButtons({
  submitLabel,
  icon,
  isPending,
  canSubmit = true,
  onCancel,
  cancelLabel = 'Cancel',
  canCancelWhilePending = false,
  form,
  className,
}: {
  submitLabel: ReactNode;
  icon?: ReactNode;
  isPending: boolean;
  /** False while the form cannot be sent yet (a required field is empty). */
  canSubmit?: boolean;
  onCancel: () => void;
  cancelLabel?: string;
  canCancelWhilePending?: boolean;
  /** The id of the form, where the footer stands outside it. */
  form?: string;
  className?: string;
}) {
  return (
    <DialogFooter className={className}>
      <Button variant="outline" onClick={onCancel} disabled={isPending && !canCancelWhilePending}>
        {cancelLabel}
      </Button>
      <Button type="submit" form={form} disabled={!canSubmit || isPending}>
        {isPending ? <Loader2 className="animate-spin" /> : icon}
        {submitLabel}
      </Button>
    </DialogFooter>
  );
}
