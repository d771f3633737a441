import { Mail } from 'lucide-react';

/** The seller's support address as a mail link, on a page of the seller's host. */
export function BrandSupportEmail({ email }: { email: string }) {
  return (
    <a
      href={`mailto:${email}`}
      className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
      data-testid="brand-support-email"
    >
      <Mail className="size-3.5" aria-hidden="true" />
      {email}
    </a>
  );
}
