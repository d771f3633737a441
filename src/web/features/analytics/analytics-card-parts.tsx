import { type AnalyticsExport, LIST_ROWS_DEFAULT, LIST_ROWS_MAX } from '@contract/analytics';
import { Download } from 'lucide-react';
import type { ReactNode } from 'react';
import { CenteredSpinner } from '../../components/centered-spinner';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { hasNothingLoaded } from '../../lib/query-state';
import { exportPath } from './analytics-hooks';

// The pieces every Analytics card is made of: its frame, CSV link, table, figures and states.

/** Rows a table shows on the page; the CSV export holds up to LIST_ROWS_MAX. */
export const TABLE_ROWS = 20;
export const number = (value: number) => value.toLocaleString('en-US');

export function CsvButton({ table, jsonPath }: { table: AnalyticsExport; jsonPath: string }) {
  return (
    <Button asChild variant="outline" size="sm">
      <a href={exportPath(table, jsonPath)} download>
        <Download />
        CSV
      </a>
    </Button>
  );
}

export function TableCard({
  title,
  description,
  action,
  children,
  testId,
}: {
  title: string;
  description: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card data-testid={testId} className="min-w-0">
      <CardHeader className="flex flex-col gap-3 space-y-0 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="min-w-0 space-y-1.5">
          <CardTitle className="text-lg">{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        {action}
      </CardHeader>
      <CardContent className="min-w-0">{children}</CardContent>
    </Card>
  );
}

export function Loading() {
  return <CenteredSpinner className="h-24" spinnerClassName="size-5" />;
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="py-6 text-center text-sm text-muted-foreground">{children}</p>;
}

/**
 * A table on a desktop; below sm each row stacks as a small card, each value beside its column's name
 * (`data-label`), so that on a phone no column waits behind a sideways scroll.
 */
export function DataTable({ headers, rows, total }: { headers: string[]; rows: ReactNode[][]; total: number }) {
  return (
    <div className="space-y-2">
      <div className="sm:overflow-x-auto">
        <table className="w-full text-left text-sm max-sm:block">
          <thead className="border-b text-muted-foreground max-sm:hidden">
            <tr>
              {headers.map((header) => (
                <th key={header} scope="col" className="whitespace-nowrap px-2 py-2 font-medium">
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="max-sm:block">
            {rows.map((cells, index) => (
              <tr key={index} className="border-b last:border-0 max-sm:block max-sm:py-2">
                {cells.map((cell, column) => (
                  <td
                    key={column}
                    data-label={headers[column]}
                    className="whitespace-nowrap px-2 py-2 max-sm:flex max-sm:justify-between max-sm:gap-3 max-sm:px-0 max-sm:py-0.5 max-sm:text-right max-sm:whitespace-normal max-sm:[overflow-wrap:anywhere] max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]"
                  >
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > rows.length && (
        <p className="text-xs text-muted-foreground">
          Showing {rows.length} of {number(total)}
          {total >= LIST_ROWS_DEFAULT ? ' or more' : ''}; the CSV export holds up to {number(LIST_ROWS_MAX)}.
        </p>
      )}
    </div>
  );
}

export function Stat({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <div className="rounded-md border p-3">
      <p className="text-xs text-muted-foreground">{label}</p>
      <p className="text-2xl font-semibold tabular-nums" data-testid={testId}>
        {value === undefined ? '–' : number(value)}
      </p>
    </div>
  );
}

/** A list card's body: loading, the load's failure, the empty list, or the rows given to `children`. */
export function ListStates<Row>({
  query,
  failure,
  empty,
  children,
}: {
  query: { isLoading: boolean; isError: boolean; data: Row[] | undefined };
  failure: string;
  empty: ReactNode;
  children: (rows: Row[]) => ReactNode;
}) {
  if (query.isLoading) return <Loading />;
  if (hasNothingLoaded(query)) return <Empty>{failure}</Empty>;
  if (!query.data?.length) return <Empty>{empty}</Empty>;
  return children(query.data);
}
