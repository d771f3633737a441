import type { AppContext } from '../../context.js';
import { buildHolderNotice, type HolderNoticeInput } from './license-email.js';
import type { LicenseMailSeller } from './license-mail.service.js';

// Notices to license holders that are not licenses (a security advisory on a package they installed), in the
// seller's brand and through the same durable mail path as license e-mails.

export { getLicenseMailSeller } from './license-mail.service.js';
export type { LicenseMailSeller };

/** Sends one notice to one holder; `reference` lets the mail's delivery be looked up later. */
export async function sendHolderNotice(
  ctx: AppContext,
  seller: LicenseMailSeller,
  to: string,
  notice: Omit<HolderNoticeInput, 'sellerName' | 'brand'>,
  delivery: { reference?: string } = {},
): Promise<void> {
  const { brand } = seller;
  const mail = buildHolderNotice({ ...notice, sellerName: brand.brandName, brand });
  await ctx.mailer.send({
    to,
    ...mail,
    fromName: brand.fromName,
    replyTo: brand.replyTo,
    links: [],
    reference: delivery.reference,
  });
}
