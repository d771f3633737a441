import { DollarSign, Loader2, Package, Receipt, ShoppingCart, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { errorMessage } from '../../lib/api-error';
import { formatDate } from '../../lib/format-date';
import { formatRevenue, recentUsers, useAdminStats } from './admin-dashboard';
import { useAdminUsers } from './admin-users';

/** The Dashboard tab (spec admin §2): four figures, the five most recent users, recent transactions. */
export function DashboardTab() {
  const stats = useAdminStats();
  const users = useAdminUsers();
  const figure = (value: ReactNode) => (stats.isLoading ? '...' : stats.isError ? '-' : value);
  return (
    <section className="space-y-6">
      {stats.isError && (
        <p className="text-sm text-destructive">{errorMessage(stats.error, 'Failed to load platform statistics')}</p>
      )}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard title="Total Users" icon={<Users />} value={figure(stats.data?.totalUsers ?? 0)} />
        <StatCard title="Active Packages" icon={<Package />} value={figure(stats.data?.activePackages ?? 0)} />
        <StatCard
          title="Platform Revenue"
          icon={<DollarSign />}
          value={figure(formatRevenue(stats.data?.platformRevenue))}
        />
        <StatCard title="Total Sales" icon={<ShoppingCart />} value={figure(stats.data?.totalSales ?? 0)} />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">Recent Users</CardTitle>
            <CardDescription>The newest accounts on the platform.</CardDescription>
          </CardHeader>
          <CardContent>
            {users.isLoading ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <Loader2 className="size-4 animate-spin" /> Loading users...
              </p>
            ) : users.isError ? (
              <p className="text-sm text-destructive">{errorMessage(users.error, 'Failed to load users')}</p>
            ) : recentUsers(users.data).length === 0 ? (
              <p className="text-sm text-muted-foreground">No users yet</p>
            ) : (
              <ul className="divide-y" data-testid="recent-users">
                {recentUsers(users.data).map((user) => (
                  <li key={user.id} className="flex items-center justify-between gap-3 py-2">
                    <div className="min-w-0">
                      <p className="truncate text-sm font-medium">
                        {user.email ?? user.githubUsername ?? user.displayName ?? user.id}
                      </p>
                      <p className="text-xs text-muted-foreground">Joined {formatDate(user.createdAt)}</p>
                    </div>
                    <Badge variant={user.userType === 'admin' ? 'default' : 'secondary'}>{user.userType}</Badge>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">Recent Transactions</CardTitle>
            <CardDescription>The latest payments on the platform.</CardDescription>
          </CardHeader>
          <CardContent>
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Receipt className="size-4" /> No transactions yet
            </p>
          </CardContent>
        </Card>
      </div>
    </section>
  );
}

function StatCard({ title, icon, value }: { title: string; icon: ReactNode; value: ReactNode }) {
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between space-y-0 pb-2">
        <CardTitle className="text-sm font-medium">{title}</CardTitle>
        <span className="text-muted-foreground [&_svg]:size-4">{icon}</span>
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-bold tabular-nums">{value}</p>
      </CardContent>
    </Card>
  );
}
