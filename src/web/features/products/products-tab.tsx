import type { IssuedLicense, License } from '@contract/licenses';
import type { Product } from '@contract/products';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useState } from 'react';
import type { z } from 'zod';
import { PRODUCT_DESCRIPTION_MAX_LENGTH, PRODUCT_NAME_MAX_LENGTH } from '../../../contract/products';
import { failureToast } from '../../components/failure-toast';
import { FormField, FormInput } from '../../components/form-field';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';
import { useSchemaForm } from '../../lib/schema-form';
import { productForm, productLicenseForm } from './product-forms';

// Management's Products tab (issue 31): a seller groups their packages into a product, licenses a holder for it (one
// license covering every package in it, including ones added later), and deletes it once no license of it is active.

type PackageOption = { id: string; packageName: string };

const PRODUCTS = '/api/products';
const productLicensesPath = (productId: string) => `/api/products/${encodeURIComponent(productId)}/licenses`;

/** The Pricing dialog of the sales feature, which the shell passes in: features do not import each other. */
type PricingDialogComponent = ComponentType<{
  pkg: { id: string; packageName: string; isProduct?: boolean } | undefined;
  onClose: () => void;
}>;

export function ProductsTab({ PricingDialog }: { PricingDialog?: PricingDialogComponent }) {
  const products = useQuery({ queryKey: [PRODUCTS], queryFn: getJson<Product[]> });
  const packages = useQuery({ queryKey: ['/api/repositories'], queryFn: getJson<PackageOption[]> });
  const [editing, setEditing] = useState<Product | 'new' | undefined>();
  const [pricing, setPricing] = useState<Product | undefined>();
  const options = packages.data ?? [];
  return (
    <div className="space-y-4" data-testid="products-tab">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          A product is a set of your packages sold or licensed together. A license of a product covers every package in
          it, including packages you add later.
        </p>
        <Button onClick={() => setEditing('new')}>New product</Button>
      </div>
      {editing && (
        <ProductForm
          product={editing === 'new' ? undefined : editing}
          packages={options}
          onDone={() => setEditing(undefined)}
        />
      )}
      {products.data?.length === 0 && !editing && <p className="text-sm text-muted-foreground">No products yet.</p>}
      {products.data?.map((product) => (
        <ProductCard
          key={product.id}
          product={product}
          onEdit={() => setEditing(product)}
          onPricing={PricingDialog ? () => setPricing(product) : undefined}
        />
      ))}
      {PricingDialog && (
        <PricingDialog
          pkg={pricing && { id: pricing.id, packageName: pricing.name, isProduct: true }}
          onClose={() => setPricing(undefined)}
        />
      )}
    </div>
  );
}

function ProductForm({
  product,
  packages,
  onDone,
}: {
  product: Product | undefined;
  packages: PackageOption[];
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useSchemaForm(productForm, {
    name: product?.name ?? '',
    description: product?.description ?? '',
    packageIds: product?.packages.map((pkg) => pkg.id) ?? [],
  });
  const { errors } = form.formState;
  const [name, chosen] = form.watch(['name', 'packageIds']);
  const save = useMutation({
    mutationFn: (body: z.output<typeof productForm>) =>
      product
        ? apiRequest<Product>('PATCH', `${PRODUCTS}/${encodeURIComponent(product.id)}`, body)
        : apiRequest<Product>('POST', PRODUCTS, body),
    onSuccess: async (saved) => {
      toast({ title: product ? `${saved.name} saved` : `${saved.name} created` });
      await queryClient.invalidateQueries({ queryKey: [PRODUCTS] });
      onDone();
    },
    onError: (error) => failureToast('The product was not saved', error),
  });
  const toggle = (id: string) =>
    form.setValue('packageIds', chosen.includes(id) ? chosen.filter((each) => each !== id) : [...chosen, id]);
  const submit = form.handleSubmit((body) => save.mutate(body));
  return (
    <Card>
      <CardContent className="p-4 sm:p-6">
        <form className="space-y-4" onSubmit={submit} aria-label={product ? 'Edit product' : 'New product'}>
          <FormInput
            form={form}
            name="name"
            id="product-name"
            label="Name"
            maxLength={PRODUCT_NAME_MAX_LENGTH}
            required
          />
          <FormField id="product-description" label="Description (optional)" error={errors.description?.message}>
            {(control) => (
              <Textarea
                {...control}
                maxLength={PRODUCT_DESCRIPTION_MAX_LENGTH}
                rows={2}
                {...form.register('description')}
              />
            )}
          </FormField>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">Packages</legend>
            {packages.map((pkg) => (
              <label key={pkg.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={chosen.includes(pkg.id)} onChange={() => toggle(pkg.id)} />
                <span className="font-mono">{pkg.packageName}</span>
              </label>
            ))}
            {chosen.length === 0 && <p className="text-xs text-muted-foreground">Choose at least one package.</p>}
          </fieldset>
          <div className="flex gap-2">
            <Button type="submit" disabled={save.isPending || chosen.length === 0 || name.trim() === ''}>
              {product ? 'Save product' : 'Create product'}
            </Button>
            <Button type="button" variant="outline" onClick={onDone}>
              Cancel
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function ProductCard({ product, onEdit, onPricing }: { product: Product; onEdit: () => void; onPricing?: () => void }) {
  const queryClient = useQueryClient();
  const [isLicensing, setIsLicensing] = useState(false);
  const licenses = useQuery({ queryKey: [productLicensesPath(product.id)], queryFn: getJson<License[]> });
  const remove = useMutation({
    mutationFn: () => apiRequest('DELETE', `${PRODUCTS}/${encodeURIComponent(product.id)}`),
    onSuccess: async () => {
      toast({ title: `${product.name} deleted` });
      await queryClient.invalidateQueries({ queryKey: [PRODUCTS] });
    },
    onError: (error) => failureToast('The product was not deleted', error),
  });
  return (
    <Card data-testid="product-card">
      <CardContent className="space-y-3 p-4 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-base font-semibold">{product.name}</h2>
          <Badge>
            {product.activeLicenses} active license{product.activeLicenses === 1 ? '' : 's'}
          </Badge>
        </div>
        {product.description && <p className="text-sm text-muted-foreground">{product.description}</p>}
        <p className="text-sm">
          <span className="font-medium">Packages: </span>
          <span className="font-mono">{product.packages.map((pkg) => pkg.name).join(', ')}</span>
        </p>
        {(licenses.data?.length ?? 0) > 0 && (
          <ul className="space-y-1 text-sm" aria-label={`Licenses of ${product.name}`}>
            {licenses.data?.map((license) => (
              <li key={license.id}>
                {license.email} · {license.status === 'revoked' ? 'Revoked' : license.isActive ? 'Active' : 'Ended'}
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setIsLicensing((open) => !open)}>
            License a holder
          </Button>
          <Button variant="outline" onClick={onEdit}>
            Edit
          </Button>
          {onPricing && (
            <Button variant="outline" onClick={onPricing}>
              Pricing
            </Button>
          )}
          <Button
            variant="outline"
            disabled={remove.isPending || product.activeLicenses > 0}
            title={
              product.activeLicenses > 0 ? 'A product with active licenses cannot be deleted: revoke them first.' : ''
            }
            onClick={() => remove.mutate()}
          >
            Delete
          </Button>
        </div>
        {product.activeLicenses > 0 && (
          <p className="text-xs text-muted-foreground">
            A product with active licenses cannot be deleted: revoke them first.
          </p>
        )}
        {isLicensing && <ProductLicenseForm product={product} onDone={() => setIsLicensing(false)} />}
      </CardContent>
    </Card>
  );
}

function ProductLicenseForm({ product, onDone }: { product: Product; onDone: () => void }) {
  const queryClient = useQueryClient();
  const form = useSchemaForm(productLicenseForm(product.id), { email: '', versionConstraint: '', seats: '' });
  const issue = useMutation({
    mutationFn: (body: z.output<ReturnType<typeof productLicenseForm>>) =>
      apiRequest<IssuedLicense>('POST', '/api/licenses', body),
    onSuccess: async (_issued, body) => {
      toast({
        title: `${body.email} is licensed for ${product.name}`,
        description: 'The license e-mail is on its way.',
      });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [PRODUCTS] }),
        queryClient.invalidateQueries({ queryKey: [productLicensesPath(product.id)] }),
      ]);
      onDone();
    },
    onError: (error) => failureToast('The license was not issued', error),
  });
  const submit = form.handleSubmit((body) => issue.mutate(body));
  return (
    <form className="grid gap-3 sm:grid-cols-4" onSubmit={submit} aria-label={`License ${product.name}`}>
      <FormInput
        form={form}
        name="email"
        id={`product-license-email-${product.id}`}
        label="Holder's e-mail"
        fieldClassName="space-y-1 sm:col-span-2"
        type="email"
        required
      />
      <FormInput
        form={form}
        name="versionConstraint"
        id={`product-license-versions-${product.id}`}
        label="Versions"
        fieldClassName="space-y-1"
        placeholder="Every version"
      />
      <FormInput
        form={form}
        name="seats"
        id={`product-license-seats-${product.id}`}
        label="Developer seats"
        fieldClassName="space-y-1"
        type="number"
        min={1}
        placeholder="Unlimited"
      />
      <div className="sm:col-span-4">
        <Button type="submit" disabled={issue.isPending}>
          Issue license
        </Button>
      </div>
    </form>
  );
}
