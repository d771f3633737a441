import { BookOpen, Clock, KeyRound, Plus, ShieldOff, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyStateCard } from '../../components/empty-state-card';
import { LoadErrorCard } from '../../components/load-error';
import { LoadingLine } from '../../components/loading-line';
import { PageHeading } from '../../components/page-heading';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { API_ENDPOINTS } from '../../lib/api-v1-samples';
import { usePublicConfig } from '../../lib/public-config';
import { hasNothingLoaded } from '../../lib/query-state';
import { useApiTokens, useDeleteApiToken } from './api-token-hooks';
import {
  type ApiToken,
  type ApiTokenState,
  apiTokenState,
  apiTokenStateLabels,
  DEAD_TOKEN_TEXT,
  formatDate,
  formatDateTime,
  permissionLabel,
} from './api-token-rules';
import { CodeSample, useSampleLanguage } from './code-sample';
import { CreateApiTokenDialog } from './create-api-token-dialog';

const LIST_PACKAGES = API_ENDPOINTS.find((endpoint) => endpoint.id === 'list-packages')!;

/** The app's public address, where API v1 answers; the page's own origin until the configuration is read. */
function useApiBaseUrl(): string {
  const { data: config } = usePublicConfig();
  return config?.publicUrl ?? window.location.origin;
}

/** /api-tokens (spec admin §2, §4, §5, §8): create, list and delete API tokens, with a quick start. */
export function ApiTokensPage() {
  const tokens = useApiTokens();
  const [isCreateOpen, setIsCreateOpen] = useState(false);
  const [deleting, setDeleting] = useState<ApiToken>();
  const remove = useDeleteApiToken();
  const baseUrl = useApiBaseUrl();
  const [language, setLanguage] = useSampleLanguage();
  const list = tokens.data ?? [];
  const now = new Date();

  return (
    <div className="container mx-auto space-y-8 px-4 py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageHeading title="API Tokens" className="space-y-1">
          Let your store, CRM or scripts manage packages and licenses through API v1 with scoped bearer tokens.
        </PageHeading>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link href="/api-docs">
              <BookOpen /> API Documentation
            </Link>
          </Button>
          <Button onClick={() => setIsCreateOpen(true)}>
            <Plus /> Create Token
          </Button>
        </div>
      </div>

      <section aria-labelledby="api-token-list-title" className="space-y-4">
        <h2 id="api-token-list-title" className="text-xl font-semibold">
          Your Tokens{tokens.data ? ` (${list.length})` : ''}
        </h2>
        {tokens.isLoading ? (
          <LoadingLine large className="py-10">
            Loading API tokens...
          </LoadingLine>
        ) : hasNothingLoaded(tokens) ? (
          <LoadErrorCard error={tokens.error} fallback="Failed to load API tokens" />
        ) : list.length === 0 ? (
          <EmptyStateCard
            icon={KeyRound}
            title="No API tokens yet"
            action={
              <Button onClick={() => setIsCreateOpen(true)}>
                <Plus /> Create Token
              </Button>
            }
          >
            Create a token to call the API from your own systems. Each token carries only the permissions you choose,
            and you can delete it at any time.
          </EmptyStateCard>
        ) : (
          <ul className="space-y-3">
            {list.map((token) => (
              <TokenCard
                key={token.id}
                token={token}
                state={apiTokenState(token, now)}
                onDelete={() => setDeleting(token)}
              />
            ))}
          </ul>
        )}
      </section>

      <Card>
        <CardHeader>
          <CardTitle className="text-xl">Quick Start</CardTitle>
          <CardDescription>
            Send the token as a bearer token. This request lists your packages; paste it with your token in place of
            YOUR_API_TOKEN.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4 text-sm">
          <ol className="list-decimal space-y-1 pl-5 text-muted-foreground">
            <li>Create a token with the permissions your integration needs (packages:read for this request).</li>
            <li>Copy the token when it is shown: it is shown once.</li>
            <li>Call the API. Every answer has the shape {'{ success, data, meta }'}.</li>
          </ol>
          <CodeSample
            endpoint={LIST_PACKAGES}
            values={{ baseUrl }}
            language={language}
            onLanguageChange={setLanguage}
          />
          <p className="text-muted-foreground">
            Each token may make 30 requests per minute. Every endpoint, its permission and samples in cURL, JavaScript
            and PHP are in the{' '}
            <Link href="/api-docs" className="font-medium text-primary underline-offset-4 hover:underline">
              API Documentation
            </Link>
            .
          </p>
        </CardContent>
      </Card>

      <CreateApiTokenDialog
        open={isCreateOpen}
        onOpenChange={setIsCreateOpen}
        renderQuickStart={(token) => (
          <div className="space-y-2">
            <p className="text-sm font-medium">Try it now</p>
            <CodeSample
              endpoint={LIST_PACKAGES}
              values={{ baseUrl, token }}
              language={language}
              onLanguageChange={setLanguage}
            />
          </div>
        )}
      />
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        variant="destructive"
        title="Delete API Token"
        description={`${deleting?.name} stops working at once and cannot be restored. Systems that use it will be refused.`}
        confirmText="Delete"
        isPending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSettled: () => setDeleting(undefined) })}
      />
    </div>
  );
}

const stateBadgeClass: Record<ApiTokenState, string> = {
  active: 'bg-green-600 text-white',
  inactive: '',
  expired: '',
};

function TokenCard({ token, state, onDelete }: { token: ApiToken; state: ApiTokenState; onDelete: () => void }) {
  return (
    <li>
      <Card data-testid="api-token">
        <CardContent className="flex flex-wrap items-start gap-4 p-4 sm:p-5">
          <div className="min-w-0 flex-1 space-y-2">
            <div className="flex flex-wrap items-center gap-2">
              <KeyRound className="size-4 text-muted-foreground" aria-hidden="true" />
              <span className="font-semibold [overflow-wrap:anywhere]">{token.name}</span>
              <Badge
                variant={state === 'active' ? 'default' : state === 'expired' ? 'destructive' : 'secondary'}
                className={stateBadgeClass[state]}
              >
                {apiTokenStateLabels[state]}
              </Badge>
            </div>
            <dl className="flex flex-wrap gap-x-5 gap-y-1 text-xs text-muted-foreground">
              <div className="flex gap-1">
                <dt>Created</dt>
                <dd className="text-foreground">{formatDate(token.createdAt)}</dd>
              </div>
              <div className="flex gap-1">
                <dt>Expires</dt>
                <dd className="text-foreground">{token.expiresAt ? formatDateTime(token.expiresAt) : 'Never'}</dd>
              </div>
              <div className="flex items-center gap-1">
                <Clock className="size-3" aria-hidden="true" />
                <dt className="sr-only">Last used</dt>
                <dd className="text-foreground">
                  {token.lastUsedAt ? `Last used ${formatDateTime(token.lastUsedAt)}` : 'Never used'}
                </dd>
              </div>
            </dl>
            <ul className="flex flex-wrap gap-1.5" aria-label="Permissions">
              {token.permissions.map((permission) => (
                <li key={permission}>
                  <Badge variant="outline" className="font-normal">
                    {permissionLabel(permission)}
                  </Badge>
                </li>
              ))}
            </ul>
            {state !== 'active' && (
              <p className="flex items-center gap-1.5 text-xs font-medium text-destructive">
                <ShieldOff className="size-3.5" aria-hidden="true" />
                {DEAD_TOKEN_TEXT}
              </p>
            )}
          </div>
          <Button
            variant="outline"
            size="sm"
            onClick={onDelete}
            className="text-destructive hover:text-destructive"
            aria-label={`Delete ${token.name}`}
          >
            <Trash2 /> Delete
          </Button>
        </CardContent>
      </Card>
    </li>
  );
}
