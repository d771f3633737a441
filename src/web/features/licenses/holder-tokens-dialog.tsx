import { KeySquare } from 'lucide-react';
import { useState } from 'react';
import { HolderTokensPanel } from '../../components/holder-tokens/holder-tokens-panel';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';

/** A holder's named Composer tokens on Management (issue 32): name, kind, created, last used, expiry, state; revoke. */
export function HolderTokensButton({ customerId, email }: { customerId: string; email: string }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <KeySquare /> Tokens
      </Button>
      <Dialog open={isOpen} onOpenChange={setOpen}>
        <DialogContent className="max-h-[90vh] max-w-3xl overflow-y-auto">
          <DialogHeader>
            <DialogTitle>Composer tokens</DialogTitle>
            <DialogDescription className="[overflow-wrap:anywhere]">
              The tokens {email} installs with. Revoking one stops it at its next request; the others keep working.
            </DialogDescription>
          </DialogHeader>
          {isOpen && <HolderTokensPanel basePath={`/api/customers/${customerId}/tokens`} canCreate={false} />}
        </DialogContent>
      </Dialog>
    </>
  );
}
