import { PlanChooser } from '@web/components/plan-chooser';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { trialDaysOf, usePlans } from '@web/lib/subscriptions/plans';
import { useCallToAction } from '@web/lib/subscriptions/use-call-to-action';
import {
  ArrowRight,
  BarChart3,
  Braces,
  CalendarClock,
  FolderGit2,
  Globe,
  KeyRound,
  type LucideIcon,
  Mail,
  Package,
  ShieldCheck,
  Terminal,
  Users,
  Webhook,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { CommandStep } from '../../components/numbered-step';
import { CallToActionButton } from './call-to-action-button';

/** The example seller used in the hero terminal and the setup guide. */
const EXAMPLE_HOST = 'acme.composer.example.com';
const EXAMPLE_PACKAGE = 'acme/invoice-kit';

const SETUP_STEPS = [
  {
    title: 'Add the repository',
    description: "Point Composer at the seller's package host. Each seller has a host of their own.",
    command: `composer config repositories.acme composer https://${EXAMPLE_HOST}`,
  },
  {
    title: 'Set your access token',
    description: 'Composer sends the token from your license e-mail as a bearer credential to that host only.',
    command: `composer config bearer.${EXAMPLE_HOST} YOUR_ACCESS_TOKEN`,
  },
  {
    title: 'Require the package',
    description: 'Install and update it like any other dependency, for as long as your license allows.',
    command: `composer require ${EXAMPLE_PACKAGE}`,
  },
];

const HOW_IT_WORKS: { title: string; description: string; icon: LucideIcon }[] = [
  {
    title: 'Connect GitHub',
    description:
      'Sign in with GitHub and pick the private repositories that hold a composer.json. Your code stays where it is.',
    icon: FolderGit2,
  },
  {
    title: 'Set Up Licensing',
    description:
      'Turn each repository into a package. Tags become versions and branches become dev versions, by Composer’s own rules.',
    icon: KeyRound,
  },
  {
    title: 'Manage License Holders',
    description:
      'Issue licenses with expiry dates and download limits, send trial access by e-mail, and revoke access in one click.',
    icon: Users,
  },
  {
    title: 'Integrate via API',
    description:
      'Let your store create and revoke licenses through the REST API when a sale happens, with scoped bearer tokens.',
    icon: Webhook,
  },
];

const FEATURES: { title: string; description: ReactNode; icon: LucideIcon }[] = [
  {
    title: 'Private repositories become Composer packages',
    description:
      'Every tag is a stable version and every branch a dev version. Archives are built from the exact commit and honour export-ignore.',
    icon: Package,
  },
  {
    title: 'Licenses with expiry and download limits',
    description:
      'Decide what happens when a license ends: cut access entirely, or freeze it so versions released before the end date stay installable.',
    icon: CalendarClock,
  },
  {
    title: 'Temporary licenses by e-mail',
    description:
      'Give a prospect 1 to 90 days of access. They receive the repository URL, a token and the three commands to run.',
    icon: Mail,
  },
  {
    title: 'White-label package host',
    description:
      'Your name, logo and colours on your own package host, served from your custom domain such as composer.yourcompany.com.',
    icon: Globe,
  },
  {
    title: 'Usage analytics',
    description: 'See active packages, total downloads, monthly usage and license holders at a glance.',
    icon: BarChart3,
  },
  {
    title: 'REST API v1',
    description:
      'List packages, read customers and analytics, and create purchase links from your own systems. 30 requests per minute per token.',
    icon: Braces,
  },
];

function SectionHeading({ eyebrow, title, children }: { eyebrow: string; title: string; children?: ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
      <h2 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h2>
      {children && <p className="mt-4 text-lg text-muted-foreground">{children}</p>}
    </div>
  );
}

function HeroTerminal() {
  return (
    <div className="overflow-hidden rounded-xl border bg-zinc-950 text-zinc-100 shadow-2xl">
      <div className="flex items-center gap-2 border-b border-zinc-800 px-4 py-3">
        <span className="size-3 rounded-full bg-red-500/80" />
        <span className="size-3 rounded-full bg-yellow-500/80" />
        <span className="size-3 rounded-full bg-green-500/80" />
        <span className="ml-2 text-xs text-zinc-400">~/projects/shop</span>
      </div>
      <pre className="p-4 font-mono text-xs leading-6 break-words whitespace-pre-wrap sm:text-sm">
        <code>
          <span className="text-zinc-500">$ </span>
          {`composer require ${EXAMPLE_PACKAGE}\n`}
          <span className="text-zinc-400">
            {
              './composer.json has been updated\nUpdating dependencies\nLock file operations: 1 install, 0 updates, 0 removals\n'
            }
          </span>
          {`  - Locking `}
          <span className="text-green-400">{EXAMPLE_PACKAGE}</span>
          {' (v2.4.1)\n'}
          <span className="text-zinc-400">{'Package operations: 1 install, 0 updates, 0 removals\n'}</span>
          {`  - Installing `}
          <span className="text-green-400">{EXAMPLE_PACKAGE}</span>
          {' (v2.4.1): Extracting archive\n'}
          <span className="text-yellow-300">
            {`Warning from https://${EXAMPLE_HOST}/packages.json: Your license for ${EXAMPLE_PACKAGE} ends in 5 days.`}
          </span>
        </code>
      </pre>
    </div>
  );
}

export function LandingPage() {
  // Plan choice happens after sign-in, so the hero and closing buttons carry no tier.
  const mainAction = useCallToAction();
  const trialDays = trialDaysOf(usePlans().data);

  return (
    <div>
      {/* Hero */}
      <section className="relative overflow-hidden border-b">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,var(--color-primary)_0%,transparent_60%)] opacity-15"
        />
        <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:px-8 lg:py-24">
          <div>
            <Badge variant="secondary" className="mb-6">
              Licensing for private Composer packages
            </Badge>
            <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">
              Sell private PHP packages. <span className="text-primary">Control every install.</span>
            </h1>
            <p className="mt-6 max-w-xl text-lg text-muted-foreground">
              Packgate turns your private GitHub repositories into Composer packages, hands licenses to your customers
              and checks them on every <code className="font-mono text-foreground">composer require</code>. No custom
              client, no plugin: just the Composer they already use, and a token.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <CallToActionButton action={mainAction} size="lg">
                <ArrowRight aria-hidden="true" />
              </CallToActionButton>
              <Button asChild variant="outline" size="lg">
                <a href="#how-it-works">See how it works</a>
              </Button>
            </div>
            <p className="mt-4 text-sm text-muted-foreground">
              {trialDays}-day free trial · No card needed for the trial
            </p>
          </div>
          <HeroTerminal />
        </div>
      </section>

      {/* How it works */}
      <section id="how-it-works" className="scroll-mt-16 py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading eyebrow="How it works" title="From private repository to paying customer in four steps" />
          <ol className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {HOW_IT_WORKS.map(({ title, description, icon: Icon }, index) => (
              <li key={title}>
                <Card className="h-full">
                  <CardContent className="p-6">
                    <div className="flex items-center justify-between">
                      <span className="flex size-11 items-center justify-center rounded-lg bg-primary text-primary-foreground">
                        <Icon className="size-5" aria-hidden="true" />
                      </span>
                      <span className="text-4xl font-bold text-muted-foreground/30">{index + 1}</span>
                    </div>
                    <h3 className="mt-5 text-lg font-semibold">{title}</h3>
                    <p className="mt-2 text-sm leading-6 text-muted-foreground">{description}</p>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ol>
        </div>
      </section>

      {/* Features */}
      <section id="features" className="scroll-mt-16 border-y bg-muted/40 py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading
            eyebrow="Features"
            title="Everything between your repository and your customer's vendor folder"
          >
            You write the code. Packgate packages it, licenses it, serves it and tells you who uses it.
          </SectionHeading>
          <div className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map(({ title, description, icon: Icon }) => (
              <Card key={title} className="h-full">
                <CardContent className="p-6">
                  <Icon className="size-6 text-primary" aria-hidden="true" />
                  <h3 className="mt-4 font-semibold">{title}</h3>
                  <p className="mt-2 text-sm leading-6 text-muted-foreground">{description}</p>
                </CardContent>
              </Card>
            ))}
          </div>
        </div>
      </section>

      {/* Plans */}
      <section id="pricing" className="scroll-mt-16 py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading eyebrow="Pricing" title="A monthly plan that grows with your catalogue">
            Start with a {trialDays}-day free trial of any plan. No card needed for the trial.
          </SectionHeading>
          <div className="mt-14">
            <PlanChooser mode="trial" />
          </div>
        </div>
      </section>

      {/* Composer setup guide */}
      <section id="composer-setup" className="scroll-mt-16 border-y bg-muted/40 py-20 sm:py-24">
        <div className="mx-auto max-w-4xl px-4 sm:px-6 lg:px-8">
          <SectionHeading eyebrow="For your customers" title="Real composer require, with a token">
            Your license holders use the standard Composer client. Three commands, and your package installs like any
            other dependency.
          </SectionHeading>
          <ol className="mt-12 space-y-6">
            {SETUP_STEPS.map((step, index) => (
              <li key={step.title}>
                <CommandStep number={index + 1} heading="h3" {...step} />
              </li>
            ))}
          </ol>
          <p className="mt-8 flex items-start gap-2 text-sm text-muted-foreground">
            <ShieldCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            <span>
              Every license e-mail contains these commands with the seller's own repository URL and the license holder's
              token. Access is checked on every request, and Composer shows a notice in the terminal before a license
              ends.
            </span>
          </p>
        </div>
      </section>

      {/* Final call to action */}
      <section className="py-20 sm:py-24">
        <div className="mx-auto max-w-4xl px-4 sm:px-6 lg:px-8">
          <div className="rounded-2xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-xl sm:px-12">
            <Terminal className="mx-auto size-10 opacity-80" aria-hidden="true" />
            <h2 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">
              Your next customer is one composer require away
            </h2>
            <p className="mx-auto mt-4 max-w-xl text-lg opacity-90">
              Connect GitHub, publish your first package and send a license today. The trial gives you {trialDays} days,
              free.
            </p>
            <CallToActionButton action={mainAction} size="lg" variant="secondary" className="mt-8">
              <ArrowRight aria-hidden="true" />
            </CallToActionButton>
          </div>
        </div>
      </section>
    </div>
  );
}
