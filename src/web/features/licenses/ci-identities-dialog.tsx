import { Workflow } from 'lucide-react';
import { useState } from 'react';
import { CiIdentitiesPanel } from '../../components/ci-identities/ci-identities-panel';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { useRepositoryUrl } from '../../lib/repository-url';

/**
 * A holder's trusted CI identities on Management (issue 32 item 3): the seller adds one for a holder whose
 * pipelines should install without a stored token, or removes one, and sees the steps the holder would copy.
 */
export function CiIdentitiesButton({ customerId, email }: { customerId: string; email: string }) {
  const [isOpen, setOpen] = useState(false);
  const repositoryUrl = useRepositoryUrl();
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} disabled={!repositoryUrl}>
        <Workflow /> CI identities
      </Button>
      <Dialog open={isOpen} onOpenChange={setOpen}>
        <DialogContent className="max-h-[90vh] max-w-3xl overflow-y-auto">
          <DialogHeader>
            <DialogTitle>Trusted CI identities</DialogTitle>
            <DialogDescription className="[overflow-wrap:anywhere]">
              Pipelines of {email} that match one of these get a short-lived Composer token without a stored secret.
            </DialogDescription>
          </DialogHeader>
          {isOpen && repositoryUrl && (
            <CiIdentitiesPanel basePath={`/api/customers/${customerId}/oidc-trusts`} repositoryUrl={repositoryUrl} />
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
