import { PageEmblem } from '@web/components/page-emblem';
import { ThemeToggle } from '@web/components/theme-toggle';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { ArrowLeft, ExternalLink, KeyRound, Terminal } from 'lucide-react';

const COMPOSER_DOCS_URL = 'https://getcomposer.org/doc/';

export function ComposerAccessOnlyPage() {
  return (
    <div className="relative flex min-h-[80vh] items-center justify-center px-4 py-16">
      <div className="absolute top-4 right-4">
        <ThemeToggle />
      </div>

      <div className="w-full max-w-xl text-center">
        <PageEmblem icon={Terminal} />
        <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">Composer Access Only</h1>
        <p className="mt-4 text-muted-foreground">
          This address serves a private Composer repository. It is reachable only through Composer with an access token,
          so there is nothing to browse here.
        </p>

        <Card className="mt-8 text-left">
          <CardContent className="flex gap-4 p-6">
            <KeyRound className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
            <div className="space-y-2 text-sm">
              <p className="font-medium">Have a license?</p>
              <p className="text-muted-foreground">
                Use the repository URL and access token from your license e-mail: add the repository to your project,
                set the token as a bearer credential for this host, then run{' '}
                <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs text-foreground">
                  composer require
                </code>
                . Packages you are licensed for install like any other dependency.
              </p>
            </div>
          </CardContent>
        </Card>

        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Button variant="outline" size="lg" onClick={() => window.history.back()}>
            <ArrowLeft aria-hidden="true" />
            Go Back
          </Button>
          <Button asChild size="lg">
            <a href={COMPOSER_DOCS_URL} target="_blank" rel="noreferrer">
              Composer Documentation
              <ExternalLink aria-hidden="true" />
            </a>
          </Button>
        </div>
      </div>
    </div>
  );
}
