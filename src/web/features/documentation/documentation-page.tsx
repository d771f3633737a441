import {
  BookOpen,
  Code2,
  CreditCard,
  ExternalLink,
  KeyRound,
  LayoutDashboard,
  LifeBuoy,
  type LucideIcon,
  Package,
  Palette,
  Rocket,
  Settings2,
  Terminal,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { API_V1_RATE_LIMIT } from '../../../contract/developer';
import { TEMPORARY_LICENSE_DURATIONS } from '../../../contract/licenses';
import { setupCommandSteps, TOKEN_PLACEHOLDER } from '../../../contract/setup-commands';
import { CopyCommand } from '../../components/copy-command';
import { DocNav, DocSection } from '../../components/doc-section';
import { StepNumber } from '../../components/numbered-step';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { API_ENDPOINTS, curlSample } from '../../lib/api-v1-samples';
import {
  DNS_PROPAGATION_MAX_HOURS,
  DNS_PROPAGATION_TYPICAL,
  DNS_RECORD_TTL_SECONDS,
  LAPSED_SUBSCRIPTION_GRACE_DAYS,
} from '../../lib/constants';
import { useCurrentUser } from '../../lib/current-user';
import { usePublicConfig } from '../../lib/public-config';
import { useRepositoryUrl } from '../../lib/repository-url';
import { trialDaysOf, usePlans } from '../../lib/subscriptions/plans';

const EXAMPLE_PACKAGE = 'vendor/package';
const LIST_PACKAGES = API_ENDPOINTS.find((endpoint) => endpoint.id === 'list-packages')!;

const SECTIONS: { id: string; title: string; icon: LucideIcon }[] = [
  { id: 'getting-started', title: 'Getting Started', icon: Rocket },
  { id: 'composer-setup', title: 'Composer Repository Setup', icon: Terminal },
  { id: 'subscription-model', title: 'Subscription Model', icon: CreditCard },
  { id: 'branding', title: 'Branding and Customization', icon: Palette },
  { id: 'developer-api', title: 'Developer API', icon: Code2 },
  { id: 'advanced-features', title: 'Advanced Features', icon: Settings2 },
];

const QUICK_LINKS: { label: string; href: string; icon: LucideIcon }[] = [
  { label: 'Packages', href: '/packages', icon: Package },
  { label: 'API Tokens', href: '/api-tokens', icon: KeyRound },
  { label: 'Dashboard', href: '/dashboard', icon: LayoutDashboard },
  { label: 'API Documentation', href: '/api-docs', icon: BookOpen },
];

/** /documentation (spec seller-app §2): how to use the product, with this seller's real host and commands. */
export function DocumentationPage() {
  const { data: config } = usePublicConfig();
  const { data: tiers } = usePlans();
  const repositoryUrl = useRepositoryUrl() ?? 'https://your-name.composer.example.com';
  const { data: user } = useCurrentUser();
  const commands = setupCommandSteps({
    repositoryUrl,
    sellerSlug: user?.slug ?? 'your-name',
    packageName: EXAMPLE_PACKAGE,
    token: TOKEN_PLACEHOLDER,
  });
  const publicUrl = config?.publicUrl ?? window.location.origin;
  const supportEmail = config?.supportEmail ?? 'support@packgate.localhost';
  const trialDays = trialDaysOf(tiers);
  const hasGithub = Boolean(config?.githubSignIn);

  return (
    <div className="container mx-auto px-4 py-10">
      <header className="max-w-3xl space-y-2">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Documentation</h1>
        <p className="text-muted-foreground">
          Everything you need to sell private Composer packages with Packgate: from your first package to automating
          licenses from your own store.
        </p>
      </header>

      <div className="mt-8 grid grid-cols-[minmax(0,1fr)] gap-10 lg:grid-cols-[14rem_minmax(0,1fr)]">
        <DocNav
          label="On this page"
          sections={[...SECTIONS, { id: 'support-section', title: 'Contact Support', icon: LifeBuoy }]}
        />

        <div className="min-w-0 space-y-12">
          <DocSection id="getting-started" title="Getting Started" icon={Rocket}>
            <ol className="list-decimal space-y-3 pl-5">
              <li>
                <strong>Pick a plan.</strong> Your account starts with a {trialDays}-day free trial of the plan you
                choose; no card is needed.
              </li>
              <li>
                <strong>Connect your code.</strong>{' '}
                {hasGithub
                  ? 'Sign in with GitHub: Packgate lists your private repositories that hold a composer.json.'
                  : 'This installation reads git repositories from a folder on the server (GIT_REPOS_DIR): every repository there that holds a composer.json can become a package.'}
              </li>
              <li>
                <strong>Add a package.</strong> On <Link href="/packages">Management</Link>, choose Add Package, pick
                the repository and confirm its package name (vendor/package). Tags become versions and branches become
                dev versions, following Composer’s own rules; archives are built from the exact commit.
              </li>
              <li>
                <strong>Give access.</strong> Issue a temporary license by e-mail from the package’s menu. The license
                holder receives a token and the commands below, ready to paste.
              </li>
              <li>
                <strong>Brand it.</strong> Set your name, logo, colours and support address on the{' '}
                <Link href="/dashboard">Dashboard</Link>, so that license holders see your company, not ours.
              </li>
            </ol>
          </DocSection>

          <DocSection id="composer-setup" title="Composer Repository Setup" icon={Terminal}>
            <p>
              You have a Composer repository of your own at{' '}
              <code className="font-mono text-foreground">{repositoryUrl}</code>. Each license holder gets a token for
              it; the repository lists only the packages that token is licensed for. License holders run these commands
              in their project (the license e-mail contains them with the real token):
            </p>
            <Step number={1} title="Add the repository">
              {commands.addRepository.map((command) => (
                <CopyCommand key={command} command={command} />
              ))}
              {commands.addRepository.length > 1 && (
                <p className="text-xs">
                  secure-http false is needed only while the repository is served over plain http (local testing).
                </p>
              )}
            </Step>
            <Step number={2} title="Set the bearer token for the repository host">
              {commands.setToken.map((command) => (
                <CopyCommand key={command} command={command} />
              ))}
              <p className="text-xs">
                Composer keeps the token in auth.json and sends it to this host only. HTTP basic authentication with the
                token as password works too.
              </p>
            </Step>
            <Step number={3} title="Require the package">
              {commands.require.map((command) => (
                <CopyCommand key={command} command={command} />
              ))}
            </Step>
            <p>
              Each package card on Management has a Setup Guide with these commands for that package. Opening your
              repository address in a browser shows the same three steps, in your brand.
            </p>
          </DocSection>

          <DocSection id="subscription-model" title="Subscription Model" icon={CreditCard}>
            <p>
              Packgate is a monthly platform subscription. Plans differ in how many license holders (customers) and
              packages you may have; see them on <Link href="/subscribe">Choose Your Plan</Link>.
            </p>
            <ul className="list-disc space-y-2 pl-5">
              <li>
                <strong>Free trial:</strong> {trialDays} days of the plan you choose, without a card. The banner at the
                top shows how long is left.
              </li>
              <li>
                <strong>Paying:</strong> subscribe from the banner or from Billing; payments, invoices and your card are
                handled by Stripe and managed under Manage Billing.
              </li>
              <li>
                <strong>Limits:</strong> at your plan’s package or customer limit, adding another is refused with a
                message naming the limit; what you already have keeps working.
              </li>
              <li>
                <strong>Lapsed subscription:</strong> when a trial or subscription ends, you can no longer add packages,
                and your license holders keep installing for {LAPSED_SUBSCRIPTION_GRACE_DAYS} days with a warning in
                their terminal; after that your repository stops serving until you subscribe again. Nothing is deleted.
              </li>
              <li>
                <strong>Changing or cancelling:</strong> change plan or cancel on <Link href="/billing">Billing</Link>.
                A cancelled plan runs until the end of the period you have paid for.
              </li>
            </ul>
          </DocSection>

          <DocSection id="branding" title="Branding and Customization" icon={Palette}>
            <p>
              Brand Settings on the <Link href="/dashboard">Dashboard</Link> decide what license holders see: your
              company name, your logo (an image URL, or an SVG, PNG, JPG, GIF or WebP upload of up to 5 MB), seven
              colours, and your support e-mail. The package host page and the license e-mails wear them; the e-mails can
              also carry your sender name and reply-to address.
            </p>
            <p>
              <strong>Custom domain.</strong> Serve your repository from a domain of yours, such as
              composer.yourcompany.com:
            </p>
            <ol className="list-decimal space-y-2 pl-5">
              <li>
                At your DNS provider, add a CNAME record for <code className="font-mono">composer</code> pointing to
                your repository host (<code className="font-mono">{new URL(repositoryUrl).hostname}</code>), and one for{' '}
                <code className="font-mono">portal</code> pointing to{' '}
                <code className="font-mono">{new URL(publicUrl).hostname}</code>, each with a TTL of{' '}
                {DNS_RECORD_TTL_SECONDS}.
              </li>
              <li>Enter the domain under Custom Domain and click Save Branding.</li>
              <li>
                Click Verify domain. DNS changes usually take {DNS_PROPAGATION_TYPICAL} to propagate, and at most{' '}
                {DNS_PROPAGATION_MAX_HOURS} hours.
              </li>
            </ol>
            <p>The DNS Setup Help button beside the domain field shows the exact records for your domain.</p>
          </DocSection>

          <DocSection id="developer-api" title="Developer API" icon={Code2}>
            <p>
              Your own systems (a store, a CRM) can run your licensing through API v1: read your packages, customers and
              sales, add packages from your repositories, and issue, change and revoke licenses when a sale happens,
              without anyone clicking. Create a token on <Link href="/api-tokens">API Tokens</Link> with only the
              permissions it needs (packages:read, packages:write, customers:read, customers:write, analytics:read,
              tokens:read, tokens:write, or * for full access) and send it as a bearer token:
            </p>
            <CopyCommand command={curlSample(LIST_PACKAGES, { baseUrl: publicUrl }).replaceAll(' \\\n  ', ' ')} />
            <div className="overflow-x-auto rounded-md border">
              <table className="w-full min-w-[36rem] text-left text-sm">
                <thead className="bg-muted/60 text-xs text-muted-foreground">
                  <tr>
                    <th className="px-3 py-2 font-medium">Endpoint</th>
                    <th className="px-3 py-2 font-medium">Does</th>
                    <th className="px-3 py-2 font-medium">Permission</th>
                  </tr>
                </thead>
                <tbody className="divide-y">
                  {API_ENDPOINTS.map(({ id, method, path, title, permission }) => (
                    <tr key={id}>
                      <td className="px-3 py-2 font-mono text-xs text-foreground">
                        {method} {path}
                      </td>
                      <td className="px-3 py-2">{title}</td>
                      <td className="px-3 py-2 font-mono text-xs">{permission}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p>
              Every answer, errors included, has the shape{' '}
              <code className="font-mono">{'{ success, data, meta }'}</code>. Send an Idempotency-Key with each POST,
              such as your order id: a retry with the same key returns the first answer and never issues a second
              license. Each token may make {API_V1_RATE_LIMIT.max} requests a minute; beyond that the API answers 429
              with Retry-After. A license created through the API e-mails the holder the same setup commands as one
              issued here, unless the request says not to. The guide, with examples in cURL, JavaScript and PHP, is in
              the <Link href="/api-docs">API Documentation</Link>; every field is in the{' '}
              <a href="/api/docs">interactive reference</a>.
            </p>
          </DocSection>

          <DocSection id="advanced-features" title="Advanced Features" icon={Settings2}>
            <ul className="list-disc space-y-2 pl-5">
              <li>
                <strong>Temporary licenses:</strong> give a customer access for {TEMPORARY_LICENSE_DURATIONS.join(', ')}{' '}
                days by e-mail, with an optional note; revoke it at any time, effective on the next request.
              </li>
              <li>
                <strong>Lasting licenses:</strong> for a customer who paid elsewhere, Licenses in a package’s menu
                issues a license with no expiry or an end date, an optional download limit and a note, and lets you
                change those terms, revoke it or restore it later. API v1 takes the same terms.
              </li>
              <li>
                <strong>How a license ends:</strong> it can end access completely, or end updates only, so that versions
                released before the end date stay installable.
              </li>
              <li>
                <strong>Download limits and usage:</strong> downloads are counted per license and package, and a license
                with a download limit stops at it. The Management stat cards show totals and this month’s usage.
              </li>
              <li>
                <strong>Messages in the terminal:</strong> Composer prints your repository’s notices, such as a license
                that ends within days, while license holders install or update.
              </li>
              <li>
                <strong>Staying in sync:</strong>{' '}
                {hasGithub
                  ? 'a push webhook on each GitHub repository brings new tags and branches in by themselves; Refresh on a package card reads them on demand.'
                  : 'Refresh on a package card reads new tags and branches from the repository.'}{' '}
                Background work shows its progress live in the task panel.
              </li>
            </ul>
          </DocSection>

          <section aria-labelledby="quick-links" className="space-y-4">
            <h2 id="quick-links" className="text-2xl font-bold tracking-tight">
              Quick Links
            </h2>
            <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
              {QUICK_LINKS.map(({ label, href, icon: Icon }) => (
                <Button key={href} asChild variant="outline" className="h-auto flex-col gap-2 py-4">
                  <Link href={href}>
                    <Icon aria-hidden="true" />
                    {label}
                  </Link>
                </Button>
              ))}
            </div>
          </section>

          <section id="support-section" aria-labelledby="support-heading" className="scroll-mt-20">
            <Card>
              <CardContent className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center">
                <LifeBuoy className="size-8 shrink-0 text-primary" aria-hidden="true" />
                <div className="flex-1 space-y-1">
                  <h2 id="support-heading" className="text-lg font-semibold">
                    Contact Support
                  </h2>
                  <p className="text-sm text-muted-foreground">
                    Questions about your account, billing or a package that will not install? Write to us, with your
                    package name and the command you ran.
                  </p>
                </div>
                <Button asChild>
                  <a href={`mailto:${supportEmail}`}>
                    <ExternalLink />
                    {supportEmail}
                  </a>
                </Button>
              </CardContent>
            </Card>
          </section>
        </div>
      </div>
    </div>
  );
}

function Step({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <div className="flex gap-4">
      <StepNumber number={number} />
      <div className="min-w-0 flex-1 space-y-2">
        <p className="font-medium text-foreground">{title}</p>
        {children}
      </div>
    </div>
  );
}
