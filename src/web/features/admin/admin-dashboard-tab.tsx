import { formatCents, NO_TRANSACTIONS_TEXT } from '@contract/sales';
import { DollarSign, Package, Receipt, ShoppingCart, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { LoadError } from '../../components/load-error';
import { LoadingLine } from '../../components/loading-line';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle, SectionCard } from '../../components/ui/card';
import { formatDate } from '../../lib/format-date';
import { hasNothingLoaded } from '../../lib/query-state';
import { formatRevenue, recentUsers, revenueNote, useAdminStats } from './admin-dashboard';
import { useAdminUsers } from './admin-users';
import { AdminUsersStates } from './admin-users-states';

/**
 * The Dashboard tab (spec admin §2): four figures, the five most recent users, recent transactions (the latest sales
 * and platform invoices, issue 11).
 */
export function DashboardTab() {
  const stats = useAdminStats();
  const users = useAdminUsers();
  const statsFailed = hasNothingLoaded(stats);
  const figure = (value: ReactNode) => (stats.isLoading ? '...' : statsFailed ? '-' : value);
  return (
    <section className="space-y-6">
      {statsFailed && <LoadError error={stats.error} fallback="Failed to load platform statistics" />}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard title="Total Users" icon={<Users />} value={figure(stats.data?.totalUsers ?? 0)} />
        <StatCard title="Active Packages" icon={<Package />} value={figure(stats.data?.activePackages ?? 0)} />
        <StatCard
          title="Platform Revenue"
          icon={<DollarSign />}
          value={figure(formatRevenue(stats.data?.platformRevenue))}
          note={stats.data && revenueNote(stats.data)}
          testId="platform-revenue"
        />
        <StatCard
          title="Total Sales"
          icon={<ShoppingCart />}
          value={figure(stats.data?.totalSales ?? 0)}
          note={stats.data?.grossSalesCents ? `${formatRevenue(stats.data.grossSalesCents / 100)} gross` : undefined}
          testId="total-sales"
        />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <SectionCard title="Recent Users" description="The newest accounts on the platform.">
          <AdminUsersStates users={users}>
            {(rows) =>
              recentUsers(rows).length === 0 ? (
                <p className="text-sm text-muted-foreground">No users yet</p>
              ) : (
                <ul className="divide-y" data-testid="recent-users">
                  {recentUsers(rows).map((user) => (
                    <li key={user.id} className="flex items-center justify-between gap-3 py-2">
                      <div className="min-w-0">
                        <p className="text-sm font-medium [overflow-wrap:anywhere]">
                          {user.email ?? user.githubUsername ?? user.displayName ?? user.id}
                        </p>
                        <p className="text-xs text-muted-foreground">Joined {formatDate(user.createdAt)}</p>
                      </div>
                      <Badge variant={user.userType === 'admin' ? 'default' : 'secondary'}>{user.userType}</Badge>
                    </li>
                  ))}
                </ul>
              )
            }
          </AdminUsersStates>
        </SectionCard>
        <SectionCard title="Recent Transactions" description="The latest payments on the platform.">
          {stats.isLoading ? (
            <LoadingLine className="text-sm">Loading transactions...</LoadingLine>
          ) : statsFailed ? (
            <p className="text-sm text-destructive">-</p>
          ) : (stats.data?.recentTransactions ?? []).length === 0 ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Receipt className="size-4" /> {NO_TRANSACTIONS_TEXT}
            </p>
          ) : (
            <ul className="divide-y" data-testid="recent-transactions">
              {(stats.data?.recentTransactions ?? []).map((transaction) => (
                <li key={transaction.id} className="flex items-center justify-between gap-3 py-2">
                  <div className="min-w-0">
                    <p className="truncate text-sm font-medium">{transaction.description}</p>
                    <p className="text-xs text-muted-foreground">
                      {transaction.kind === 'sale' ? 'Sale' : 'Platform invoice'} · {formatDate(transaction.createdAt)}
                      {transaction.kind === 'sale' &&
                        ` · fee ${formatCents(transaction.feeCents, transaction.currency)}`}
                    </p>
                  </div>
                  <div className="flex shrink-0 items-center gap-2">
                    {transaction.test && <Badge variant="outline">Test</Badge>}
                    <span className="text-sm font-medium tabular-nums">
                      {formatCents(transaction.amountCents, transaction.currency)}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </SectionCard>
      </div>
    </section>
  );
}

function StatCard({
  title,
  icon,
  value,
  note,
  testId,
}: {
  title: string;
  icon: ReactNode;
  value: ReactNode;
  note?: ReactNode;
  testId?: string;
}) {
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between space-y-0 pb-2">
        <CardTitle className="text-sm font-medium">{title}</CardTitle>
        <span className="text-muted-foreground [&_svg]:size-4">{icon}</span>
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-bold tabular-nums" data-testid={testId}>
          {value}
        </p>
        {note && <p className="mt-1 text-xs text-muted-foreground">{note}</p>}
      </CardContent>
    </Card>
  );
}
