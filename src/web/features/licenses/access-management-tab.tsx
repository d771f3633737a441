import { KeyRound, Loader2, Users } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyStateCard } from '../../components/empty-state-card';
import { LoadErrorCard } from '../../components/load-error';
import { LoadingLine } from '../../components/loading-line';
import { SearchField } from '../../components/search-field';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { LICENSE_HOLDER_SEARCH_DELAY_MS } from '../../lib/constants';
import { hasNothingLoaded } from '../../lib/query-state';
import { CiIdentitiesButton } from './ci-identities-dialog';
import { HolderTokensButton } from './holder-tokens-dialog';
import { type Customer, type CustomerGrant, useCustomers, useRegenerateToken } from './license-hooks';
import { downloadsText, formatDate, formatDateTime, grantKindLabels, grantStatusLabel } from './license-rules';

/** Access Management: the seller's license holders and what each may install (issue 3, in place of spec §2's placeholder). */
export function AccessManagementTab() {
  const [search, setSearch] = useState('');
  const searched = useDelayedValue(search.trim(), LICENSE_HOLDER_SEARCH_DELAY_MS);
  const customers = useCustomers(searched);
  const [regenerating, setRegenerating] = useState<Customer>();
  const regenerate = useRegenerateToken();
  const shown = customers.data?.pages.flat() ?? [];

  return (
    <section className="space-y-6" aria-labelledby="access-management-title">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="access-management-title" className="text-2xl font-semibold tracking-tight">
            License Holders
          </h2>
          <p className="text-muted-foreground">
            Everyone holding a token for your repository, with each package they may install.
          </p>
        </div>
        <SearchField
          className="sm:w-72"
          placeholder="Search by email or package..."
          aria-label="Search license holders"
          value={search}
          onValueChange={setSearch}
        />
      </div>

      {customers.isLoading ? (
        <LoadingLine large className="justify-center py-16">
          Loading license holders...
        </LoadingLine>
      ) : hasNothingLoaded(customers) ? (
        <LoadErrorCard error={customers.error} fallback="Failed to load license holders" />
      ) : shown.length === 0 && !searched ? (
        <EmptyStateCard icon={Users} title="No license holders yet" className="py-14">
          Issue a temporary license from a package's menu on the Overview tab, or create licenses through the API.
        </EmptyStateCard>
      ) : shown.length === 0 ? (
        <p className="py-10 text-center text-sm text-muted-foreground">No license holders match your search.</p>
      ) : (
        <div className="space-y-4">
          {shown.map((customer) => (
            <CustomerCard key={customer.id} customer={customer} onRegenerate={() => setRegenerating(customer)} />
          ))}
          {customers.hasNextPage && (
            <LoadMore loading={customers.isFetchingNextPage} onLoad={() => customers.fetchNextPage()} />
          )}
        </div>
      )}

      <ConfirmDialog
        open={Boolean(regenerating)}
        onOpenChange={(open) => !open && setRegenerating(undefined)}
        variant="warning"
        title="Regenerate token"
        description={`${regenerating?.email} receives a new token by e-mail, and the current one stops working at once in every project that uses it.`}
        confirmText="Regenerate token"
        isPending={regenerate.isPending}
        onConfirm={() =>
          regenerating && regenerate.mutate(regenerating.email, { onSettled: () => setRegenerating(undefined) })
        }
      />
    </section>
  );
}

/**
 * The end of a page of holders: the next page loads when this comes into view as the seller scrolls, or on a click
 * (keyboards, and browsers that do not tell).
 */
function LoadMore({ loading, onLoad }: { loading: boolean; onLoad: () => void }) {
  const end = useRef<HTMLDivElement>(null);
  const load = useRef(onLoad);
  load.current = onLoad;
  useEffect(() => {
    const element = end.current;
    if (!element || loading || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => entries.some((entry) => entry.isIntersecting) && load.current(),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [loading]);
  return (
    <div ref={end} className="flex justify-center py-2">
      <Button variant="outline" onClick={onLoad} disabled={loading}>
        {loading ? (
          <>
            <Loader2 className="animate-spin" /> Loading more license holders...
          </>
        ) : (
          'Load more'
        )}
      </Button>
    </div>
  );
}

/** The value once it has stopped changing for `delayMs`: a search typed letter by letter asks the server once. */
function useDelayedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

function CustomerCard({ customer, onRegenerate }: { customer: Customer; onRegenerate: () => void }) {
  return (
    <Card data-testid="license-holder">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="min-w-0 space-y-1">
          <CardTitle className="text-base [overflow-wrap:anywhere]">{customer.email}</CardTitle>
          <CardDescription>
            Holder since {formatDate(customer.createdAt)} · Token issued {formatDateTime(customer.tokenIssuedAt)}
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <HolderTokensButton customerId={customer.id} email={customer.email} />
          <CiIdentitiesButton customerId={customer.id} email={customer.email} />
          <Button variant="outline" size="sm" onClick={onRegenerate}>
            <KeyRound /> Regenerate token
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {customer.grants.length === 0 ? (
          <p className="text-sm text-muted-foreground">No licenses.</p>
        ) : (
          <div className="rounded-md border">
            <table className="w-full text-sm max-md:block md:table-fixed">
              <colgroup>
                {GRANT_COLUMNS.map((column) => (
                  <col key={column.label} style={{ width: column.width }} />
                ))}
              </colgroup>
              <thead className="bg-muted/50 text-left text-xs text-muted-foreground max-md:hidden">
                <tr>
                  {GRANT_COLUMNS.map((column) => (
                    <th key={column.label} scope="col" className="px-3 py-2 font-medium">
                      {column.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y max-md:block">
                {customer.grants.map((grant) => (
                  <GrantRow key={grant.id} grant={grant} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The grant table's columns. Every holder's table gets the same widths (table-layout: fixed), so the columns
 * line up from one holder to the next on a desktop; below md each grant stacks as a small card of labelled values
 * (`data-label`), so nothing hides off-screen on a phone.
 */
const GRANT_COLUMNS = [
  { label: 'Package', width: '26%' },
  { label: 'Kind', width: '13%' },
  { label: 'Status', width: '12%' },
  { label: 'Expires', width: '14%' },
  { label: 'Downloads', width: '14%' },
  { label: 'Last used', width: '21%' },
] as const;

// On a phone a cell shows its column's name above its value.
const STACKED_CELL =
  'px-3 py-2 max-md:block max-md:p-0 max-md:before:mb-0.5 max-md:before:block max-md:before:text-xs max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]';

function GrantRow({ grant }: { grant: CustomerGrant }) {
  const status = grantStatusLabel(grant);
  return (
    <tr data-testid="grant-row" className="max-md:grid max-md:grid-cols-2 max-md:gap-x-4 max-md:gap-y-3 max-md:p-3">
      <td
        data-label="Package"
        className={cn(STACKED_CELL, 'font-mono text-xs [overflow-wrap:anywhere] max-md:col-span-2')}
      >
        {grant.packageName}
      </td>
      <td data-label="Kind" className={STACKED_CELL}>
        {grantKindLabels[grant.kind]}
      </td>
      <td data-label="Status" className={STACKED_CELL}>
        {status === 'Active' ? (
          <Badge className="bg-green-600 text-white">Active</Badge>
        ) : (
          <Badge variant={status === 'Revoked' ? 'destructive' : 'secondary'}>{status}</Badge>
        )}
      </td>
      <td data-label="Expires" className={STACKED_CELL}>
        {grant.expiresAt ? formatDate(grant.expiresAt) : 'Never'}
        {grant.expiresAt && grant.endMode === 'updates' && (
          <span className="block text-xs text-muted-foreground">updates only</span>
        )}
      </td>
      <td data-label="Downloads" className={cn(STACKED_CELL, 'tabular-nums')}>
        {downloadsText(grant)}
      </td>
      <td data-label="Last used" className={STACKED_CELL}>
        {grant.lastUsedAt ? formatDateTime(grant.lastUsedAt) : 'Never'}
      </td>
    </tr>
  );
}
