import type { WebhookEndpointWithSecret } from '@contract/webhooks';
import { CopyButton } from '../../components/copy-button';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';

/** Shows a new or rotated signing secret once. */
export function SecretDialog({ endpoint, onDone }: { endpoint?: WebhookEndpointWithSecret; onDone: () => void }) {
  return (
    <Dialog open={endpoint !== undefined} onOpenChange={(open) => !open && onDone()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Signing Secret</DialogTitle>
          <DialogDescription>
            Copy this secret into your system now: it is shown once. Use it to verify the webhook-signature header of
            each request to {endpoint?.url}.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code className="min-w-0 flex-1 break-all rounded-md border bg-muted px-3 py-2 font-mono text-sm">
            {endpoint?.secret}
          </code>
          <CopyButton value={endpoint?.secret ?? ''} label="Copy" />
        </div>
        <DialogFooter>
          <Button onClick={onDone}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
