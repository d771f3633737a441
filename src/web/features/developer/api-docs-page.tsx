import {
  Archive,
  BarChart3,
  BookOpen,
  ExternalLink,
  Gauge,
  GitBranch,
  KeyRound,
  LifeBuoy,
  type LucideIcon,
  Package,
  Rocket,
  ShieldCheck,
  Ticket,
  Users,
  Webhook,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { API_V1_AUTH_FAILURE_LIMIT, API_V1_RATE_LIMIT, API_V1_VERSION } from '../../../contract/developer';
import { DocNav, DocSection } from '../../components/doc-section';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import {
  API_ENDPOINTS,
  API_SECTIONS,
  type ApiEndpoint,
  type ApiMethod,
  type ApiSectionId,
  SAMPLE_PLACEHOLDER_SOURCES,
} from '../../lib/api-v1-samples';
import { cn } from '../../lib/cn';
import { usePublicConfig } from '../../lib/public-config';
import { permissionLabel } from './api-token-rules';
import { CodeBlock, CodeSample, useSampleLanguage } from './code-sample';

/** The interactive reference generated from the OpenAPI document (served by the API, not by this app). */
const INTERACTIVE_REFERENCE_PATH = '/api/docs';
const OPENAPI_DOCUMENT_PATH = '/api/docs/openapi.json';
const FALLBACK_SUPPORT_EMAIL = 'support@packgate.localhost';

const sectionIcons: Record<ApiSectionId, LucideIcon> = {
  packages: Package,
  'code-hosts': GitBranch,
  customers: Users,
  licenses: Ticket,
  analytics: BarChart3,
  tokens: KeyRound,
  webhooks: Webhook,
  account: Archive,
};

const GUIDE_SECTIONS: { id: string; title: string; icon: LucideIcon }[] = [
  { id: 'getting-started', title: 'Getting Started', icon: Rocket },
  ...API_SECTIONS.map(({ id, title }) => ({ id, title, icon: sectionIcons[id] })),
  { id: 'rate-limits', title: 'Rate Limits', icon: Gauge },
  { id: 'best-practices', title: 'Best Practices', icon: ShieldCheck },
  { id: 'help', title: 'Help', icon: LifeBuoy },
];

const methodClass: Record<ApiMethod, string> = {
  GET: 'bg-blue-600 text-white',
  POST: 'bg-green-600 text-white',
  PATCH: 'bg-amber-600 text-white',
  DELETE: 'bg-red-600 text-white',
};

const ENVELOPE_EXAMPLE = `{
  "success": true,
  "data": [ ... ],
  "meta": {
    "provider": "packgate",
    "apiVersion": "${API_V1_VERSION}",
    "total": 1
  }
}`;

const ERROR_EXAMPLE = `{
  "success": false,
  "error": "Access Denied",
  "message": "This API token lacks the customers:write permission.",
  "suggestion": "Create a token with customers:write (or * for full access) on /api-tokens.",
  "status": 403,
  "code": "FORBIDDEN",
  "meta": { "provider": "packgate", "apiVersion": "${API_V1_VERSION}" }
}`;

/** /api-docs (spec admin §2): the guide to API v1 with samples; the full reference lives at /api/docs. */
export function ApiDocsPage() {
  const { data: config } = usePublicConfig();
  const baseUrl = config?.publicUrl ?? window.location.origin;
  const supportEmail = config?.supportEmail || FALLBACK_SUPPORT_EMAIL;
  const [language, setLanguage] = useSampleLanguage();
  const perMinute = API_V1_RATE_LIMIT.max;

  return (
    <div className="container mx-auto px-4 py-10">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl space-y-2">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">API Documentation</h1>
          <p className="text-muted-foreground">
            API {API_V1_VERSION} lets your store, CRM or scripts read your packages, customers and sales, and issue,
            change and revoke licenses without anyone clicking.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <a href={INTERACTIVE_REFERENCE_PATH}>
              <ExternalLink /> Interactive Reference
            </a>
          </Button>
          <Button asChild>
            <Link href="/api-tokens">
              <KeyRound /> API Tokens
            </Link>
          </Button>
        </div>
      </header>

      <div className="mt-8 grid grid-cols-[minmax(0,1fr)] gap-10 lg:grid-cols-[13rem_minmax(0,1fr)]">
        <DocNav label="API sections" sections={GUIDE_SECTIONS} />

        <div className="min-w-0 space-y-12">
          <DocSection links="paragraphs" id="getting-started" title="Getting Started" icon={Rocket}>
            <p>
              Every request goes to <code className="font-mono text-foreground">{baseUrl}/api/v1</code> with an API
              token from <Link href="/api-tokens">API Tokens</Link> as a bearer token. A token carries only the
              permissions you gave it: a request that needs another one is refused with 403, naming the permission. An
              expired, inactive or deleted token is refused with 401.
            </p>
            <CodeBlock code={`Authorization: Bearer YOUR_API_TOKEN`} label="Header" />
            <p>
              Every answer, errors included, is JSON in one envelope (the account’s archive aside, a file):{' '}
              <code className="font-mono">success</code>, <code className="font-mono">data</code> and{' '}
              <code className="font-mono">meta</code> (provider, apiVersion and, where they apply, total, period and
              currency). An error carries <code className="font-mono">error</code>,{' '}
              <code className="font-mono">message</code>, sometimes a <code className="font-mono">suggestion</code>, the
              HTTP <code className="font-mono">status</code> and a stable <code className="font-mono">code</code> for
              your program to test.
            </p>
            <p>
              Permissions are written as the API writes them (<code className="font-mono">packages:read</code>,{' '}
              <code className="font-mono">customers:write</code>, <code className="font-mono">*</code> for all); each
              endpoint below names the one it needs. The samples run as they are once you put your own values in place
              of the words in capitals:
            </p>
            <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
              {SAMPLE_PLACEHOLDER_SOURCES.map(({ placeholder, source }) => (
                <div key={placeholder} className="contents">
                  <dt>
                    <code className="font-mono text-foreground">{placeholder}</code>
                  </dt>
                  <dd className="mb-2 sm:mb-0">{source}</dd>
                </div>
              ))}
            </dl>
            <div className="grid gap-4">
              <CodeBlock code={ENVELOPE_EXAMPLE} label="Answer" />
              <CodeBlock code={ERROR_EXAMPLE} label="Error" />
            </div>
          </DocSection>

          {API_SECTIONS.map((section) => (
            <DocSection
              links="paragraphs"
              key={section.id}
              id={section.id}
              title={section.title}
              icon={sectionIcons[section.id]}
            >
              <p>{section.description}</p>
              {API_ENDPOINTS.filter((endpoint) => endpoint.section === section.id).map((endpoint) => (
                <EndpointCard
                  key={endpoint.id}
                  endpoint={endpoint}
                  sample={
                    <CodeSample
                      endpoint={endpoint}
                      values={{ baseUrl }}
                      language={language}
                      onLanguageChange={setLanguage}
                    />
                  }
                />
              ))}
            </DocSection>
          ))}

          <DocSection links="paragraphs" id="rate-limits" title="Rate Limits" icon={Gauge}>
            <p>
              Each token may make <strong>{perMinute} requests per minute</strong>. Every answer says where you stand:
            </p>
            <ul className="list-disc space-y-1 pl-5">
              <li>
                <code className="font-mono">RateLimit-Limit</code>: requests allowed in the window ({perMinute}).
              </li>
              <li>
                <code className="font-mono">RateLimit-Remaining</code>: requests left in the current window.
              </li>
              <li>
                <code className="font-mono">RateLimit-Reset</code>: seconds until the window starts again.
              </li>
            </ul>
            <p>
              Beyond the limit the API answers <strong>429 Too Many Requests</strong> with a{' '}
              <code className="font-mono">Retry-After</code> header in seconds: wait that long, then retry. Composer
              installs by your license holders never count against it.
            </p>
            <p>
              Refused tokens count against the address they come from: after {API_V1_AUTH_FAILURE_LIMIT.max} in{' '}
              {API_V1_AUTH_FAILURE_LIMIT.windowMs / 60_000} minutes, that address is answered 429 with Retry-After,
              whatever token it sends, until the window ends. A system still sending a deleted or expired token can lock
              out the others on its address: replace it promptly.
            </p>
          </DocSection>

          <DocSection links="paragraphs" id="best-practices" title="Best Practices" icon={ShieldCheck}>
            <ul className="list-disc space-y-2 pl-5">
              <li>
                <strong>Send an Idempotency-Key with every POST</strong>, such as your order id. A retry with the same
                key by the same token within 24 hours returns the first answer and has no second effect, so a timeout
                never doubles a license. Keys belong to the token that sends them: retry with the token that sent the
                request.
              </li>
              <li>
                <strong>One token per system, with the fewest permissions</strong> it needs; give it an expiry when the
                integration is temporary, and delete it the moment it may have leaked.
              </li>
              <li>
                <strong>Keep tokens on your server.</strong> Never put one in a web page, a mobile app or a public
                repository: anyone holding it acts as you.
              </li>
              <li>
                <strong>Honour Retry-After</strong> on 429, and back off on 5xx answers before retrying.
              </li>
              <li>
                <strong>Read the envelope</strong>: check <code className="font-mono">success</code> and show the{' '}
                <code className="font-mono">message</code> of an error; it says what to fix.
              </li>
            </ul>
          </DocSection>

          <DocSection links="paragraphs" id="help" title="Help" icon={LifeBuoy}>
            <div className="grid gap-4 sm:grid-cols-2">
              <HelpCard
                icon={BookOpen}
                title="Interactive Reference"
                description="Every endpoint with its fields and answers, generated from the OpenAPI document; try requests in the browser."
              >
                <div className="flex flex-wrap gap-2">
                  <Button asChild size="sm" variant="outline">
                    <a href={INTERACTIVE_REFERENCE_PATH}>Open reference</a>
                  </Button>
                  <Button asChild size="sm" variant="ghost">
                    <a href={OPENAPI_DOCUMENT_PATH}>openapi.json</a>
                  </Button>
                </div>
              </HelpCard>
              <HelpCard
                icon={KeyRound}
                title="API Tokens"
                description="Create, inspect and delete the tokens your systems use."
              >
                <Button asChild size="sm" variant="outline">
                  <Link href="/api-tokens">Manage tokens</Link>
                </Button>
              </HelpCard>
              <HelpCard
                icon={Rocket}
                title="Documentation"
                description="How packages, licenses, branding and the Composer repository work."
              >
                <Button asChild size="sm" variant="outline">
                  <Link href="/documentation">Read the guide</Link>
                </Button>
              </HelpCard>
              <HelpCard
                icon={LifeBuoy}
                title="Contact Support"
                description="Stuck? Send us the request you made and the answer you got (without the token)."
              >
                <Button asChild size="sm" variant="outline">
                  <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
                </Button>
              </HelpCard>
            </div>
          </DocSection>
        </div>
      </div>
    </div>
  );
}

function EndpointCard({ endpoint, sample }: { endpoint: ApiEndpoint; sample: ReactNode }) {
  return (
    <Card id={endpoint.id} className="scroll-mt-20" data-testid="api-endpoint">
      <CardHeader className="space-y-2 p-4 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <Badge className={cn('font-mono', methodClass[endpoint.method])}>{endpoint.method}</Badge>
          <code className="break-all font-mono text-sm text-foreground">{endpoint.path}</code>
        </div>
        <CardTitle className="text-base">{endpoint.title}</CardTitle>
        <CardDescription>
          {endpoint.description}{' '}
          <span className="whitespace-nowrap">
            Permission: <Badge variant="outline">{permissionLabel(endpoint.permission)}</Badge>
          </span>
        </CardDescription>
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">{sample}</CardContent>
    </Card>
  );
}

function HelpCard({
  icon: Icon,
  title,
  description,
  children,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardContent className="space-y-3 p-5">
        <div className="flex items-center gap-2 font-semibold text-foreground">
          <Icon className="size-5 text-primary" aria-hidden="true" />
          {title}
        </div>
        <p className="text-sm">{description}</p>
        {children}
      </CardContent>
    </Card>
  );
}
