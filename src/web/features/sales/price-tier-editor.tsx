import { Trash2 } from 'lucide-react';
import { Controller, type UseFormReturn, useWatch } from 'react-hook-form';
import { billingIntervals, pricingTypes, SALE_CURRENCIES } from '../../../contract/sales';
import { FieldMessage, FormField, FormSelect } from '../../components/form-field';
import { PriceInput } from '../../components/price-input';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect, SelectOptions } from '../../components/ui/native-select';
import { Switch } from '../../components/ui/switch';
import { Tooltip } from '../../components/ui/tooltip';
import { WholeNumberInput } from '../../components/whole-number-input';
import { intervalLabels, type PriceForm, pricingTypeLabels } from './pricing-rules';

/** The Pricing dialog's form: its tiers as typed. */
export type PricingFormValues = { tiers: PriceForm[] };

/** One tier of the Pricing dialog (issue 11): its name, terms, price and the versions its license covers. */
export function PriceTierEditor({
  form,
  index,
  onRemove,
}: {
  form: UseFormReturn<PricingFormValues>;
  index: number;
  onRemove: () => void;
}) {
  const tier = useWatch({ control: form.control, name: `tiers.${index}` });
  const problems = form.formState.errors.tiers?.[index];
  // A row being removed renders once more without its values.
  if (!tier) return null;
  const id = (field: string) => `tier-${tier.key}-${field}`;
  const field = <Name extends keyof PriceForm>(name: Name) => `tiers.${index}.${name}` as const;

  return (
    <fieldset
      className="min-w-0 space-y-3 rounded-md border p-4"
      data-testid="pricing-tier"
      aria-label={`Tier ${index + 1}`}
    >
      <div className="flex flex-wrap items-center gap-3">
        <FormField
          id={id('name')}
          label="Name"
          error={problems?.name?.message}
          className="min-w-0 flex-1 basis-full sm:basis-auto"
        >
          {(control) => <Input {...control} maxLength={100} {...form.register(field('name'))} />}
        </FormField>
        <div className="flex w-full items-center gap-2 sm:w-auto sm:pt-5">
          <Controller
            control={form.control}
            name={field('isActive')}
            render={({ field: active }) => (
              <Switch
                id={id('active')}
                checked={active.value}
                // A switch is a button, not an input: the form's onInput does not see it, so it clears the problems itself.
                onCheckedChange={(checked) => {
                  active.onChange(checked);
                  form.clearErrors();
                }}
                aria-label="Active"
              />
            )}
          />
          <Label htmlFor={id('active')} className="text-sm">
            Active
          </Label>
          <Tooltip content={tier.salesCount > 0 ? 'Has sales: saving keeps it, inactive' : 'Remove tier'}>
            <Button
              variant="ghost"
              size="icon"
              className="ml-auto size-9 text-muted-foreground hover:text-destructive sm:ml-0"
              onClick={onRemove}
              aria-label={`Remove ${tier.name || `tier ${index + 1}`}`}
            >
              <Trash2 />
            </Button>
          </Tooltip>
        </div>
      </div>

      <div className="grid gap-3 sm:grid-cols-2">
        <FormSelect
          form={form}
          name={field('pricingType')}
          id={id('type')}
          label="Type"
          values={pricingTypes}
          optionLabel={(type) => pricingTypeLabels[type]}
        />
        {tier.pricingType === 'one_time' ? (
          <FormField
            id={id('updateMonths')}
            label="Months of updates"
            hint="Versions released in this period stay installable for good; later ones need a new purchase."
            error={problems?.updateMonths?.message}
          >
            {(control) => <WholeNumberInput {...control} min={1} {...form.register(field('updateMonths'))} />}
          </FormField>
        ) : (
          <div className="grid grid-cols-2 gap-3">
            <FormSelect
              form={form}
              name={field('interval')}
              id={id('interval')}
              label="Billed"
              values={billingIntervals}
              optionLabel={(interval) => intervalLabels[interval]}
            />
            <FormField id={id('trialDays')} label="Trial days" error={problems?.trialDays?.message}>
              {(control) => (
                <WholeNumberInput {...control} min={0} placeholder="None" {...form.register(field('trialDays'))} />
              )}
            </FormField>
          </div>
        )}
      </div>

      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid grid-cols-[1fr_6.5rem] gap-3">
          <div className="space-y-1.5">
            <Label htmlFor={id('price')}>Price</Label>
            <Controller
              control={form.control}
              name={field('price')}
              render={({ field: price }) => (
                <PriceInput
                  id={id('price')}
                  placeholder="49.00"
                  value={price.value}
                  onValueChange={price.onChange}
                  onBlur={price.onBlur}
                  ref={price.ref}
                  aria-invalid={Boolean(problems?.price)}
                  aria-describedby={problems?.price ? id('price-error') : undefined}
                />
              )}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={id('currency')}>Currency</Label>
            <NativeSelect
              id={id('currency')}
              aria-invalid={Boolean(problems?.currency)}
              aria-describedby={problems?.currency ? id('currency-error') : undefined}
              {...form.register(field('currency'))}
            >
              <SelectOptions values={SALE_CURRENCIES} label={(currency) => currency.toUpperCase()} />
            </NativeSelect>
          </div>
          <div className="col-span-2 empty:hidden">
            <FieldMessage id={id('price-error')} error={problems?.price?.message} />
            <FieldMessage id={id('currency-error')} error={problems?.currency?.message} />
          </div>
        </div>
        <FormField
          id={id('versionConstraint')}
          label="Versions (optional)"
          hint='The license bought with this tier covers these versions only, e.g. ^2.0 for a "Version 2 licence".'
          error={problems?.versionConstraint?.message}
          className="sm:col-span-2"
        >
          {(control) => (
            <Input
              {...control}
              maxLength={200}
              className="font-mono"
              placeholder="Every version; or a Composer constraint such as ^2.0"
              {...form.register(field('versionConstraint'))}
            />
          )}
        </FormField>
        <FormField id={id('description')} label="Description (optional)">
          {(control) => (
            <Input
              {...control}
              maxLength={1000}
              placeholder="e.g. For one production site"
              {...form.register(field('description'))}
            />
          )}
        </FormField>
      </div>
      {tier.salesCount > 0 && (
        <Badge variant="secondary">
          {tier.salesCount} {tier.salesCount === 1 ? 'sale' : 'sales'}
        </Badge>
      )}
    </fieldset>
  );
}
