import { CalendarDays, Download, Package, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent } from '../../components/ui/card';
import { useDashboardAnalytics } from '../../lib/analytics';
import { hasNothingLoaded } from '../../lib/query-state';

const numberFormat = new Intl.NumberFormat('en-US');

/** Management's four figures (spec seller-app §2, §3 Dashboard analytics). */
export function StatCards() {
  const analytics = useDashboardAnalytics();
  const { data, isLoading } = analytics;
  const value = (figure: number | undefined) => {
    if (isLoading) return '…';
    if (hasNothingLoaded(analytics) || figure === undefined) return '—';
    return numberFormat.format(figure);
  };
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" data-testid="stat-cards">
      <StatCard icon={<Package />} label="Active Packages" value={value(data?.activePackages)} hint="Installable now" />
      <StatCard icon={<Download />} label="Total Downloads" value={value(data?.totalDownloads)} hint="All time" />
      <StatCard
        icon={<CalendarDays />}
        label="Monthly Usage"
        value={value(data?.monthlyUsage)}
        hint="Downloads this month"
      />
      <StatCard
        icon={<Users />}
        label="Total Users"
        value={value(data?.totalUsers)}
        hint="License holders with access"
      />
    </div>
  );
}

function StatCard({ icon, label, value, hint }: { icon: ReactNode; label: string; value: string; hint: string }) {
  return (
    <Card>
      <CardContent className="flex items-start justify-between gap-4 p-4 sm:p-5">
        <div className="space-y-1">
          <p className="text-sm font-medium text-muted-foreground">{label}</p>
          <p className="text-2xl font-bold tabular-nums">{value}</p>
          <p className="text-xs text-muted-foreground">{hint}</p>
        </div>
        <span className="hidden size-10 shrink-0 sm:flex items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-5">
          {icon}
        </span>
      </CardContent>
    </Card>
  );
}
