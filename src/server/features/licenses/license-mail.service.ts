import type { MailSendOptions } from '../../adapters/mail/mailer.js';
import type { AppContext } from '../../context.js';
import { grantMailReference } from '../../jobs/mail-delivery.js';
import { type EmailBrand, getEmailBrand, repositoryUrlFor } from '../branding/branding.service.js';
import type { SellerProfile } from '../users/users.service.js';
import { getSeller } from './grants.service.js';
import { buildLicenseEmail, type LicenseEmailInput } from './license-email.js';

// The license e-mail's sender: the seller with their brand, and the one place that renders and sends a license
// e-mail in that brand (grant issuing, sales and API v1 send through it).

/** What a license e-mail shows of its seller (a row shape, not who acts): their names and the brand it wears. */
export type LicenseMailSeller = SellerProfile & { brand: EmailBrand };

/**
 * The seller and their brand, loaded before the transaction that sends the e-mail: a query outside an open
 * transaction would wait for it on PGlite's single connection.
 */
export async function getLicenseMailSeller(ctx: AppContext, sellerId: string): Promise<LicenseMailSeller> {
  const seller = await getSeller(ctx, sellerId);
  return { ...seller, brand: await getEmailBrand(ctx, seller) };
}

/**
 * Renders and sends one license e-mail in the seller's brand (name, colour, logo, support address, Reply-To, the
 * verified custom domain in the repository URL), logging only the repository URL.
 */
export async function sendLicenseEmail(
  ctx: AppContext,
  seller: LicenseMailSeller,
  to: string,
  content: Omit<LicenseEmailInput, 'repositoryUrl' | 'sellerSlug' | 'sellerName' | 'brand'>,
  delivery: { grantId?: string; db?: MailSendOptions['db']; queueOnly?: boolean } = {},
): Promise<void> {
  const { brand } = seller;
  const repositoryUrl = repositoryUrlFor(ctx, { slug: seller.slug, brandDomain: brand.verifiedDomain });
  const mail = buildLicenseEmail({
    ...content,
    sellerName: brand.brandName,
    sellerSlug: seller.slug,
    repositoryUrl,
    brand,
  });
  await ctx.mailer.send(
    {
      to,
      ...mail,
      fromName: brand.fromName,
      replyTo: brand.replyTo,
      links: [repositoryUrl],
      reference: delivery.grantId ? grantMailReference(delivery.grantId) : undefined,
    },
    { db: delivery.db, queueOnly: delivery.queueOnly },
  );
}
