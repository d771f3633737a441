import { FlaskConical, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { errorMessage } from '../../lib/api-error';
import { useCurrentUser } from '../../lib/current-user';
import { type PackagePrice, usePayoutAccount, useTestPurchase } from './sales-hooks';

/**
 * With billing off buyers cannot check out (issue 28): the seller runs a test purchase of a saved tier instead, for
 * their own address or another, and lands on its success page; the sale is marked test wherever it appears.
 */
export function TestPurchase({ pkg, tiers }: { pkg: { id: string; isProduct?: boolean }; tiers: PackagePrice[] }) {
  const account = usePayoutAccount();
  const user = useCurrentUser();
  const purchase = useTestPurchase(pkg.id, pkg.isProduct);
  const id = useId();
  const [tierId, setTierId] = useState(tiers[0]?.id ?? '');
  const [email, setEmail] = useState<string>();
  if (!account.data?.testMode || tiers.length === 0) return null;
  const address = email ?? user.data?.email ?? '';
  const selected = tiers.some((tier) => tier.id === tierId) ? tierId : (tiers[0]?.id ?? '');
  return (
    <div className="space-y-3 rounded-md border border-amber-500/50 bg-amber-500/10 p-3" data-testid="test-purchase">
      <p className="flex items-start gap-2 text-sm">
        <FlaskConical className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
        <span>
          <strong>Test purchase.</strong> Billing is off, so buyers cannot check out. Run the whole purchase yourself:
          it completes at once without payment, grants the {pkg.isProduct ? 'product’s packages' : 'package'} and is
          marked as a test.
        </span>
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-tier`}>Tier</Label>
          <NativeSelect id={`${id}-tier`} value={selected} onChange={(event) => setTierId(event.target.value)}>
            {tiers.map((tier) => (
              <option key={tier.id} value={tier.id}>
                {tier.name}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-email`}>Holder email</Label>
          <Input
            id={`${id}-email`}
            type="email"
            value={address}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="you@example.com"
          />
        </div>
      </div>
      {purchase.isError && (
        <p className="text-sm text-destructive" role="alert">
          {errorMessage(purchase.error, 'The test purchase failed. Please try again.')}
        </p>
      )}
      <Button
        variant="outline"
        size="sm"
        disabled={purchase.isPending || purchase.isSuccess}
        onClick={() => purchase.mutate({ tierId: selected, ...(address.trim() ? { email: address.trim() } : {}) })}
      >
        {purchase.isPending ? <Loader2 className="animate-spin" /> : <FlaskConical />}
        Run Test Purchase
      </Button>
    </div>
  );
}
