import { Link } from 'wouter';
import { usePublicConfig } from '../lib/public-config';

export function Footer() {
  const { data: config } = usePublicConfig();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t">
      <div className="container mx-auto flex flex-col items-center justify-between gap-4 px-4 py-6 text-sm text-muted-foreground sm:flex-row">
        <p>© {year} Packgate. All rights reserved.</p>
        <nav className="flex flex-wrap items-center gap-x-6 gap-y-2" aria-label="Footer">
          <Link href="/terms" className="hover:text-foreground">
            Terms of Service
          </Link>
          <Link href="/privacy" className="hover:text-foreground">
            Privacy Policy
          </Link>
          {config?.supportEmail && (
            <a href={`mailto:${config.supportEmail}`} className="hover:text-foreground">
              Support
            </a>
          )}
        </nav>
      </div>
    </footer>
  );
}
