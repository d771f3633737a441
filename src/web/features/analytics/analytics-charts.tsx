import type { AnalyticsBucket, DownloadSeries, VersionAdoption } from '@contract/analytics';
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

// The charts, drawn by recharts in SVG. Colours are the theme's CSS variables, so light and dark follow the theme
// toggle without a re-render.

const axisTick = { fill: 'var(--muted-foreground)', fontSize: 12 };
const tooltipStyle = {
  contentStyle: {
    background: 'var(--popover, var(--background))',
    border: '1px solid var(--border)',
    borderRadius: 8,
    color: 'var(--foreground)',
  },
  labelStyle: { color: 'var(--foreground)' },
  cursor: { fill: 'var(--muted)', opacity: 0.5 },
};

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
export const formatDay = (day: string) => shortDay.format(new Date(`${day}T00:00:00Z`));
export const bucketLabel = (start: string, bucket: AnalyticsBucket) =>
  bucket === 'week' ? `Week of ${formatDay(start)}` : formatDay(start);

export function DownloadsChart({ series }: { series: DownloadSeries }) {
  const data = series.points.map((point) => ({ ...point, label: formatDay(point.start) }));
  return (
    <div className="h-64 w-full sm:h-72" data-testid="downloads-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis dataKey="label" tick={axisTick} tickLine={false} axisLine={false} minTickGap={24} />
          <YAxis allowDecimals={false} tick={axisTick} tickLine={false} axisLine={false} width={48} />
          <Tooltip
            {...tooltipStyle}
            labelFormatter={(_, payload) => {
              const start = payload?.[0]?.payload?.start as string | undefined;
              return start ? bucketLabel(start, series.bucket) : '';
            }}
            formatter={(value) => [Number(value).toLocaleString('en-US'), 'Downloads']}
          />
          <Bar dataKey="downloads" fill="var(--primary)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** One colour per major line, so that "who is still on 1.x" stands out. */
const LINE_COLORS = ['var(--primary)', 'hsl(199 89% 48%)', 'hsl(142 71% 40%)', 'hsl(38 92% 50%)', 'hsl(0 72% 55%)'];

export function VersionsChart({ versions }: { versions: VersionAdoption['packages'][number]['versions'] }) {
  const lines = [...new Set(versions.map((entry) => entry.line))];
  const height = Math.max(160, versions.length * 36 + 40);
  return (
    <div className="w-full" style={{ height }} data-testid="versions-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={versions} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="var(--border)" />
          <XAxis type="number" allowDecimals={false} tick={axisTick} tickLine={false} axisLine={false} />
          <YAxis type="category" dataKey="version" tick={axisTick} tickLine={false} axisLine={false} width={72} />
          <Tooltip {...tooltipStyle} formatter={(value) => [Number(value).toLocaleString('en-US'), 'Holders']} />
          <Bar dataKey="holders" radius={[0, 3, 3, 0]} isAnimationActive={false}>
            {versions.map((entry) => (
              <Cell
                key={entry.version}
                fill={LINE_COLORS[lines.indexOf(entry.line) % LINE_COLORS.length] ?? 'var(--primary)'}
              />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
