import { PageEmblem } from '@web/components/page-emblem';
import { Button } from '@web/components/ui/button';
import { ArrowLeft, BookOpen, CreditCard, FileQuestion, Home, LayoutDashboard, LifeBuoy, Package } from 'lucide-react';
import { Link } from 'wouter';
import { useSupportEmail } from './use-support-email';

const destinations = [
  { label: 'Management', href: '/packages', icon: Package },
  { label: 'Dashboard', href: '/dashboard', icon: LayoutDashboard },
  { label: 'Documentation', href: '/documentation', icon: BookOpen },
  { label: 'Billing', href: '/billing', icon: CreditCard },
] as const;

export function NotFoundPage() {
  const supportEmail = useSupportEmail();

  return (
    <div className="flex min-h-[70vh] items-center justify-center px-4 py-16">
      <div className="w-full max-w-lg text-center">
        <PageEmblem icon={FileQuestion} />
        <p className="mt-6 text-sm font-semibold text-primary">404</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Page Not Found</h1>
        <p className="mt-4 text-muted-foreground">
          The page you are looking for does not exist or has been moved. Check the address, or pick one of the places
          below.
        </p>

        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link href="/">
              <Home aria-hidden="true" />
              Go Home
            </Link>
          </Button>
          <Button variant="outline" size="lg" onClick={() => window.history.back()}>
            <ArrowLeft aria-hidden="true" />
            Go Back
          </Button>
        </div>

        <nav aria-label="Helpful links" className="mt-8 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {destinations.map(({ label, href, icon: Icon }) => (
            <Button key={href} asChild variant="ghost" className="h-auto flex-col gap-1.5 border py-3">
              <Link href={href}>
                <Icon aria-hidden="true" />
                {label}
              </Link>
            </Button>
          ))}
        </nav>

        <p className="mt-8 text-sm text-muted-foreground">
          Still stuck?{' '}
          <a
            href={`mailto:${supportEmail}`}
            className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
          >
            <LifeBuoy className="size-4" aria-hidden="true" />
            Support
          </a>
        </p>
      </div>
    </div>
  );
}
