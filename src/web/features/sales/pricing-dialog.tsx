import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';

/** The package a pricing dialog acts on (the packages feature hands it over through the app shell). */
export type PricedPackage = { id: string; packageName: string };

/** Pricing of one package (issue 11): one or more tiers, one-time or subscription. */
export function PricingDialog({ pkg, onClose }: { pkg: PricedPackage | undefined; onClose: () => void }) {
  return (
    <Dialog open={Boolean(pkg)} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Pricing</DialogTitle>
          <DialogDescription>
            What <span className="font-mono text-foreground">{pkg?.packageName}</span> costs on its purchase page.
          </DialogDescription>
        </DialogHeader>
      </DialogContent>
    </Dialog>
  );
}
