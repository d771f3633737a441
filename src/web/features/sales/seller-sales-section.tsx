import {
  AlertTriangle,
  CheckCircle2,
  Clock,
  ExternalLink,
  FlaskConical,
  Landmark,
  Loader2,
  Receipt,
  Wallet,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { type PayoutAccountState, PLATFORM_FEE_PERCENT } from '../../../contract/sales';
import { LoadingLine } from '../../components/loading-line';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle } from '../../components/ui/card';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format-date';
import { usePermission } from '../../lib/permissions';
import { hasNothingLoaded } from '../../lib/query-state';
import { formatCents } from './pricing-rules';
import {
  type PayoutAccount,
  type SellerSalesSummary,
  useConnectPayoutAccount,
  usePayoutAccount,
  useSalesSummary,
} from './sales-hooks';

const RECENT_SALES_SHOWN = 5;

/** The Dashboard's selling section (issue 11): the payout account and the seller's sales figures. */
export function SellerSalesSection() {
  // Only the owner manages payouts (issue 33); other roles see why instead of a failing card.
  const payouts = usePermission('payouts:manage');
  return (
    // Each card as tall as its content: stretched to the taller card beside it, the payout card showed a blank band.
    <section className="grid items-start gap-6 md:grid-cols-2" aria-label="Sales">
      {payouts.allowed ? <PayoutAccountCard /> : <PayoutAccountUnavailable reason={payouts.reason ?? ''} />}
      <SalesCard />
    </section>
  );
}

function PayoutAccountUnavailable({ reason }: { reason: string }) {
  return (
    <Card data-testid="payout-account-card">
      <CardHeader className="space-y-1.5">
        <CardIconTitle icon={Landmark} className="text-lg">
          Payout Account
        </CardIconTitle>
        <CardDescription>{reason}</CardDescription>
      </CardHeader>
    </Card>
  );
}

export const payoutStateLabels: Record<PayoutAccountState, string> = {
  not_connected: 'Not connected',
  pending: 'Pending',
  enabled: 'Enabled',
  restricted: 'Restricted',
};

function PayoutAccountCard() {
  const account = usePayoutAccount();
  const connect = useConnectPayoutAccount();
  return (
    <Card data-testid="payout-account-card">
      <CardHeader className="space-y-1.5">
        <div className="flex items-center justify-between gap-2">
          <CardIconTitle icon={Landmark} className="text-lg">
            Payout Account
          </CardIconTitle>
          {account.data && <PayoutBadge account={account.data} />}
        </div>
        <CardDescription>
          Buyers pay into your own Stripe account; the platform keeps {PLATFORM_FEE_PERCENT}% of each sale.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {account.isLoading ? (
          <LoadingLine>Loading payout account...</LoadingLine>
        ) : hasNothingLoaded(account) || !account.data ? (
          <p className="text-destructive">{errorMessage(account.error, 'Failed to load the payout account')}</p>
        ) : (
          <PayoutDetails
            account={account.data}
            action={
              account.data.testMode ? null : (
                <Button onClick={() => connect.mutate()} disabled={connect.isPending}>
                  {connect.isPending ? <Loader2 className="animate-spin" /> : <ExternalLink />}
                  {account.data.state === 'not_connected'
                    ? 'Connect Payout Account'
                    : account.data.state === 'enabled'
                      ? 'Update Payout Details'
                      : 'Continue Onboarding'}
                </Button>
              )
            }
          />
        )}
      </CardContent>
    </Card>
  );
}

function PayoutBadge({ account }: { account: PayoutAccount }) {
  if (account.testMode) {
    return (
      <Badge variant="outline" className="gap-1 border-amber-500/60 text-amber-700 dark:text-amber-400">
        <FlaskConical className="size-3" aria-hidden="true" /> Test sales
      </Badge>
    );
  }
  const label = payoutStateLabels[account.state];
  if (account.state === 'enabled') return <Badge className="bg-green-600 text-white">{label}</Badge>;
  if (account.state === 'restricted') return <Badge variant="destructive">{label}</Badge>;
  return <Badge variant="secondary">{label}</Badge>;
}

function PayoutDetails({ account, action }: { account: PayoutAccount; action: ReactNode }) {
  const line = (icon: ReactNode, text: ReactNode) => (
    <p className="flex items-start gap-2" data-testid="payout-state">
      <span className="mt-0.5 shrink-0 [&_svg]:size-4">{icon}</span>
      <span>{text}</span>
    </p>
  );
  const body = account.testMode
    ? line(
        <FlaskConical className="text-amber-600" />,
        'Billing is off on this server, so buyers cannot check out. Run a test purchase of your own package from its Pricing dialog: it completes at once without a payment provider and is marked as test. Connect a payout account once payments are configured.',
      )
    : account.state === 'not_connected'
      ? line(
          <Wallet className="text-muted-foreground" />,
          'Not connected. Connect a Stripe account to sell your packages: Stripe asks for your business and bank details.',
        )
      : account.state === 'pending'
        ? line(
            <Clock className="text-muted-foreground" />,
            'Pending. Stripe still needs some details before you can take payments.',
          )
        : account.state === 'enabled'
          ? line(
              <CheckCircle2 className="text-green-600" />,
              'Enabled. Sales are paid into your Stripe account, which pays out to your bank.',
            )
          : line(
              <AlertTriangle className="text-destructive" />,
              <>
                Restricted. Stripe has paused payments or payouts
                {account.reason ? (
                  <>
                    : <code className="font-mono text-xs">{account.reason}</code>
                  </>
                ) : null}
                . Open Stripe to resolve it.
              </>,
            );
  return (
    <div className="space-y-4">
      {body}
      {action}
    </div>
  );
}

function SalesCard() {
  const summary = useSalesSummary();
  return (
    <Card data-testid="sales-card">
      <CardHeader className="space-y-1.5">
        <CardIconTitle icon={Receipt} className="text-lg">
          Sales
        </CardIconTitle>
        <CardDescription>
          Paid sales of your packages, before the platform fee; test purchases are not counted.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {summary.isLoading ? (
          <LoadingLine>Loading sales...</LoadingLine>
        ) : hasNothingLoaded(summary) || !summary.data ? (
          <p className="text-destructive">{errorMessage(summary.error, 'Failed to load sales')}</p>
        ) : (
          <SalesFigures summary={summary.data} />
        )}
      </CardContent>
    </Card>
  );
}

function SalesFigures({ summary }: { summary: SellerSalesSummary }) {
  const recent = summary.recentSales.slice(0, RECENT_SALES_SHOWN);
  return (
    <>
      <dl className="grid grid-cols-2 gap-3">
        <Figure label="Total sales" value={summary.totalSalesFormatted} testId="sales-total" />
        <Figure label="This month" value={summary.monthlySalesFormatted} />
        <Figure label="Purchases" value={String(summary.totalPurchases)} />
        <Figure label="Customers" value={String(summary.totalCustomers)} />
      </dl>
      {summary.feesCents > 0 && (
        <p className="text-xs text-muted-foreground">
          Platform fees ({PLATFORM_FEE_PERCENT}%): {formatCents(summary.feesCents, summary.currency)}
        </p>
      )}
      {recent.length === 0 ? (
        <p className="rounded-md border border-dashed p-4 text-center text-muted-foreground">
          No sales yet. Set prices with a package's Pricing button in{' '}
          <Link href="/management" className="font-medium text-primary underline-offset-4 hover:underline">
            Management
          </Link>
          .
        </p>
      ) : (
        <ul className="divide-y rounded-md border" data-testid="recent-sales">
          {recent.map((sale) => (
            <li key={sale.id} className="flex items-start justify-between gap-3 p-3">
              <div className="min-w-0">
                <p className="font-medium [overflow-wrap:anywhere]">
                  <span className="font-mono">{sale.packageName}</span> · {sale.tierName}
                </p>
                <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
                  {sale.customerEmail} · {formatDate(sale.createdAt)}
                </p>
              </div>
              <div className="flex shrink-0 flex-col items-end gap-1">
                <span className="font-medium tabular-nums">{formatCents(sale.amountCents, sale.currency)}</span>
                <span className="flex gap-1">
                  {sale.test && <Badge variant="outline">Test</Badge>}
                  {sale.status !== 'paid' && <Badge variant="secondary">{saleStatusLabels[sale.status]}</Badge>}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const saleStatusLabels: Record<SellerSalesSummary['recentSales'][number]['status'], string> = {
  pending: 'Pending',
  paid: 'Paid',
  refunded: 'Refunded',
  disputed: 'Disputed',
};

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-md border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-xl font-bold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
