import { FlaskConical, Loader2 } from 'lucide-react';
import { useEffect, useId } from 'react';
import { z } from 'zod';
import { testPurchaseInput } from '../../../contract/sales';
import { FieldMessage } from '../../components/form-field';
import { FailureAlert } from '../../components/load-error';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { intoContract } from '../../lib/contract-form';
import { useCurrentUser } from '../../lib/current-user';
import { useSchemaForm } from '../../lib/schema-form';
import { type PackagePrice, usePayoutAccount, useTestPurchase } from './sales-hooks';

/** The tier picked and the holder's address; an empty address is the seller's own (the server's default). */
const testPurchaseForm = z.object({ tierId: z.string(), email: z.string() }).transform(
  intoContract(testPurchaseInput, ({ tierId, email }) => ({
    tierId,
    ...(email.trim() ? { email: email.trim() } : {}),
  })),
);

/**
 * With billing off buyers cannot check out (issue 28): the seller runs a test purchase of a saved tier instead, for
 * their own address or another, and lands on its success page; the sale is marked test wherever it appears.
 */
export function TestPurchase({ pkg, tiers }: { pkg: { id: string; isProduct?: boolean }; tiers: PackagePrice[] }) {
  const account = usePayoutAccount();
  const user = useCurrentUser();
  const purchase = useTestPurchase(pkg.id, pkg.isProduct);
  const id = useId();
  const form = useSchemaForm(testPurchaseForm, { tierId: tiers[0]?.id ?? '', email: '' });
  // The seller's own address fills the field once known, unless they have typed another.
  const ownEmail = user.data?.email;
  useEffect(() => {
    if (ownEmail && !form.getFieldState('email').isDirty) form.resetField('email', { defaultValue: ownEmail });
  }, [ownEmail, form]);
  // A tier removed since (the list is the saved active tiers) falls back to the first.
  const tierId = form.watch('tierId');
  useEffect(() => {
    if (!tiers.some((tier) => tier.id === tierId)) form.setValue('tierId', tiers[0]?.id ?? '');
  }, [tiers, tierId, form]);
  if (!account.data?.testMode || tiers.length === 0) return null;
  // Not a <form>: this sits inside the Pricing dialog's own form.
  const run = form.handleSubmit((input) => purchase.mutate(input));
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
          <NativeSelect id={`${id}-tier`} {...form.register('tierId')}>
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
            placeholder="you@example.com"
            aria-invalid={Boolean(form.formState.errors.email)}
            {...form.register('email')}
          />
          <FieldMessage error={form.formState.errors.email?.message} />
        </div>
      </div>
      <FailureAlert error={purchase.error} fallback="The test purchase failed. Please try again." />
      <Button
        variant="outline"
        size="sm"
        disabled={purchase.isPending || purchase.isSuccess}
        onClick={() => void run()}
      >
        {purchase.isPending ? <Loader2 className="animate-spin" /> : <FlaskConical />}
        Run Test Purchase
      </Button>
    </div>
  );
}
