import { sql } from 'drizzle-orm';
import { boolean, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz, timestamptzNow } from './columns.js';
import { users } from './users.js';

/** A seller's brand: their package host page and the e-mails their license holders receive. */
export const brandSettings = pgTable(
  'brand_settings',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    brandName: text('brand_name'),
    /** An https URL, or the storage URL of an uploaded logo. */
    brandLogo: text('brand_logo'),
    brandHideText: boolean('brand_hide_text').notNull().default(false),
    brandColor: text('brand_color'),
    brandBackgroundColor: text('brand_background_color'),
    brandCardColor: text('brand_card_color'),
    brandBorderColor: text('brand_border_color'),
    brandTextColor: text('brand_text_color'),
    brandSecondaryTextColor: text('brand_secondary_text_color'),
    brandHeaderColor: text('brand_header_color'),
    /**
     * Custom Composer host, e.g. composer.acme.com (a CNAME to {slug}.COMPOSER_DOMAIN). Until verified it is only a
     * claim: several sellers may claim one name, and the first to verify it gets it.
     */
    brandDomain: text('brand_domain'),
    brandDomainVerifiedAt: timestamptz('brand_domain_verified_at'),
    supportEmail: text('support_email'),
    emailFromName: text('email_from_name'),
    emailFromAddress: text('email_from_address'),
    emailReplyTo: text('email_reply_to'),
    updatedAt: timestamptzNow('updated_at'),
  },
  (table) => [
    // Only a verified domain is reserved: an unverified claim must not keep the real owner out.
    uniqueIndex('brand_settings_verified_domain_unique')
      .on(sql`lower(${table.brandDomain})`)
      .where(sql`${table.brandDomainVerifiedAt} is not null`),
  ],
);
