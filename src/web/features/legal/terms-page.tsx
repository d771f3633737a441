import { trialDaysOf, usePlans } from '@web/lib/subscriptions/plans';
import { Link } from 'wouter';
import { DATA_DELETION_DAYS, LEGAL_LAST_UPDATED, PLATFORM_FEE_PERCENT } from './legal-constants';
import { LegalDocument, type LegalSection } from './legal-document';
import { useSupportEmail } from './use-support-email';

const linkClass = 'text-primary underline-offset-4 hover:underline';

export function TermsPage() {
  const supportEmail = useSupportEmail();
  // The trial an admin configured (the landing page reads the same answer), so the Terms promise what sign-up gives.
  const trialDays = trialDaysOf(usePlans().data);

  const sections: LegalSection[] = [
    {
      id: 'service',
      title: 'The Service',
      body: (
        <>
          <p>
            Packgate is a licensing and access-control service for private Composer (PHP) packages. It lets you, the
            seller, connect a code host such as GitHub, turn private repositories that contain a{' '}
            <code>composer.json</code> file into installable packages, issue licenses to your customers (&ldquo;license
            holders&rdquo;), and serve those packages through a private Composer repository that your license holders
            reach with <code>composer require</code> and an access token.
          </p>
          <p>
            The service includes the web application, the Composer repository hosts operated for each seller (including
            custom domains you connect), the REST API, e-mails we send on your behalf, and any documentation we publish.
            We may improve, change or discontinue individual features over time; when a change materially reduces what
            your plan includes, we will tell you in advance as described in Section 15.
          </p>
        </>
      ),
    },
    {
      id: 'accounts',
      title: 'Accounts and Eligibility',
      body: (
        <>
          <p>
            You sign in through your code-host account or, where offered, through a single-use link sent to your e-mail
            address. You must be at least 18 years old, or the age of majority where you live, and able to enter into a
            binding contract. If you use Packgate on behalf of a company, you confirm that you are authorised to accept
            these Terms for it, and &ldquo;you&rdquo; then means that company.
          </p>
          <p>
            You are responsible for everything that happens under your account, including actions taken with API tokens
            you create. Keep your code-host credentials, API tokens and sign-in links confidential, and tell us promptly
            at{' '}
            <a className={linkClass} href={`mailto:${supportEmail}`}>
              {supportEmail}
            </a>{' '}
            if you believe any of them has been compromised. The information in your account must be accurate and kept
            current.
          </p>
        </>
      ),
    },
    {
      id: 'free-trial',
      title: 'Free Trial',
      body: (
        <>
          <p>
            {trialDays > 0
              ? `New sellers may try Packgate free of charge for ${trialDays} ${trialDays === 1 ? 'day' : 'days'}.`
              : 'Packgate currently offers new sellers no free trial.'}{' '}
            Where a trial is offered, it starts when you choose a plan for the first time and gives you the features of
            that plan. No payment card is required to start a trial, and a trial never turns into a paid subscription on
            its own.
          </p>
          <p>
            When the trial ends, the application remains available to you with a prompt to subscribe, but features that
            need an active subscription, such as adding packages, stop working until you subscribe. We may change the
            length of the trial offered to new sellers, and we may refuse or end a trial that is being used to avoid
            paying for the service, for example through repeated new accounts.
          </p>
        </>
      ),
    },
    {
      id: 'subscriptions',
      title: 'Subscription Plans and Platform Fees',
      body: (
        <>
          <p>
            After the trial, continued use of Packgate requires a paid subscription. Each plan (tier) has a monthly
            platform fee and limits on the number of packages and license holders you may manage, as shown on our
            pricing page when you subscribe. Fees are quoted and charged in US dollars and do not include taxes, which
            are added where the law requires.
          </p>
          <p>
            Subscriptions are billed monthly in advance and renew automatically each month until cancelled. You may
            change plans at any time; the new price applies from the change, prorated by the payment provider where
            applicable. You may cancel at any time from the billing page; cancellation takes effect at the end of the
            current billing period and you keep access until then. Except where the law requires otherwise, fees already
            paid are not refundable. We will give you at least 30 days&rsquo; notice of any increase in the price of
            your plan.
          </p>
        </>
      ),
    },
    {
      id: 'platform-fee',
      title: 'Platform Fee on Sales',
      body: (
        <>
          <p>
            When you sell licenses to your packages through Packgate&rsquo;s checkout, Packgate retains a platform fee
            of {PLATFORM_FEE_PERCENT}% of the gross amount of each sale, in addition to the monthly subscription fee.
            &ldquo;Gross amount&rdquo; means the total price paid by the license holder, before the payment
            provider&rsquo;s processing fees, refunds, chargebacks and taxes are deducted.
          </p>
          <p>
            The platform fee is collected automatically at the time of the sale, through the payment provider, and the
            remainder is paid to your connected payment account. Platform fees on sales that are later refunded or
            reversed are not returned unless we state otherwise in writing. Licenses you grant without a sale through
            Packgate, such as temporary licenses sent by e-mail, carry no platform fee.
          </p>
        </>
      ),
    },
    {
      id: 'payments',
      title: 'Payment Processing',
      body: (
        <>
          <p>
            Payments for subscriptions and for sales to your license holders are processed by Stripe, our payment
            provider. To receive payments from sales you must connect a Stripe account and accept Stripe&rsquo;s own
            terms, including the Stripe Connected Account Agreement. Packgate never stores full card numbers; card
            details are entered on pages served by Stripe and handled under Stripe&rsquo;s terms and privacy policy.
          </p>
          <p>
            You authorise us, through Stripe, to charge your chosen payment method for subscription fees and to deduct
            the platform fee from each sale. If a payment fails, we may retry it and may limit your account to read-only
            access until the balance is paid. Payouts, payout timing, disputes and chargebacks on your sales are
            governed by your agreement with Stripe; you are responsible for chargebacks and refunds on your sales.
          </p>
        </>
      ),
    },
    {
      id: 'seller-responsibilities',
      title: 'Your Packages and License Holders',
      body: (
        <>
          <p>
            You remain the seller of your packages. You are responsible for their contents, their quality, their
            support, and the license terms under which you distribute them. You confirm that you own or have the right
            to distribute every repository you connect, and that doing so does not breach any third party&rsquo;s rights
            or any open-source license.
          </p>
          <p>
            You are also responsible for your relationship with your license holders: the prices, refund policy and
            terms you offer them, the e-mail addresses you add to Packgate and your right to send them access
            information, and the taxes that apply to your sales. Settings you choose, such as expiry dates, download
            limits and whether access ends entirely or freezes on expiry, are applied as you configure them; Packgate is
            not responsible for the consequences of the settings you choose. Where you add personal data of license
            holders, you act as the controller of that data and we process it on your behalf as described in our{' '}
            <Link className={linkClass} href="/privacy">
              Privacy Policy
            </Link>
            .
          </p>
        </>
      ),
    },
    {
      id: 'acceptable-use',
      title: 'Acceptable Use',
      body: (
        <>
          <p>You agree not to use Packgate to:</p>
          <ul>
            <li>
              distribute malware, code that harms the systems it is installed on, or code you have no right to sell;
            </li>
            <li>infringe intellectual-property rights, or resell packages built from other people&rsquo;s work;</li>
            <li>send unsolicited e-mail, or add e-mail addresses of people who have not asked for access;</li>
            <li>
              probe, scan or test the vulnerability of the service, or get around its authentication, rate limits,
              download limits or license checks, other than through a security report made to us in good faith;
            </li>
            <li>
              place an unreasonable load on the service, for example by automated downloads far beyond normal use of
              Composer;
            </li>
            <li>share access tokens publicly, or sell access to the service itself to third parties;</li>
            <li>break any applicable law, including export-control and sanctions laws.</li>
          </ul>
          <p>
            We may remove content or suspend access that breaches this section, and will tell you why unless the law or
            the safety of others prevents us.
          </p>
        </>
      ),
    },
    {
      id: 'intellectual-property',
      title: 'Intellectual Property',
      body: (
        <>
          <p>
            You keep all rights in your code, packages, brand names, logos and other content you bring to Packgate. You
            grant us a limited, non-exclusive licence to copy, store, process and transmit that content only as needed
            to operate the service for you: for example, to mirror your repositories, build and cache distribution
            archives for each version, display your branding on your package host, and deliver your packages to the
            license holders you authorise. This licence ends when your content is deleted from the service.
          </p>
          <p>
            Packgate, its software, design, documentation and trademarks belong to us and our licensors. These Terms
            give you no rights in them beyond the right to use the service while your account is in good standing. If
            you send us feedback or suggestions, we may use them without any obligation to you.
          </p>
        </>
      ),
    },
    {
      id: 'api',
      title: 'API Usage and Rate Limits',
      body: (
        <>
          <p>
            Packgate offers a REST API (version v1) so that your own systems can list and manage packages, issue, change
            and revoke licenses, manage license holders and read analytics. API requests are authenticated with bearer
            tokens that you create and scope in the application; each token carries only the permissions you choose, and
            you may delete it at any time. Licenses issued through the API are the same licenses you issue in the
            application and bind you in the same way; token creation and deletion and every license change made through
            the API are recorded in an audit log that you can read.
          </p>
          <p>
            Each token may make up to 30 requests per minute; requests beyond that limit are refused with HTTP status
            429 and may be retried after the interval the response indicates. Composer downloads by your license holders
            are not counted against this limit. We may change rate limits to protect the service, and will announce
            lasting reductions in advance. You must not use the API to copy the service or to build a competing product
            from it, and you are responsible for keeping your tokens secret.
          </p>
        </>
      ),
    },
    {
      id: 'termination',
      title: 'Termination',
      body: (
        <>
          <p>
            You may stop using Packgate and delete your account at any time. We may suspend or terminate your account if
            you materially breach these Terms and do not remedy the breach within 14 days of our notice, or immediately
            where the breach is serious, such as distributing malware, fraud or non-payment after repeated failed
            charges, or where the law requires us to.
          </p>
          <p>
            When your account ends, your packages stop being served and the licenses you issued stop granting access, so
            your license holders will no longer be able to install or update your packages through Packgate. Before
            closing your account, make sure you have arranged another way to honour your commitments to your license
            holders. We delete your data as described in the Privacy Policy. Sections 5, 6, 9, 12, 13 and 14 survive
            termination, as do any amounts owed.
          </p>
          <p>
            You close your account yourself on the Settings page, and can download all of its data there first. After
            closing you can still sign in and download it for {DATA_DELETION_DAYS} days; then the personal data is
            erased. Sales records are kept for as long as tax law requires (for example 10 years), without the
            buyer&rsquo;s e-mail address.
          </p>
        </>
      ),
    },
    {
      id: 'disclaimers',
      title: 'Disclaimers',
      body: (
        <>
          <p>
            We work to keep Packgate available, secure and correct, but the service is provided &ldquo;as is&rdquo; and
            &ldquo;as available&rdquo;. To the fullest extent the law allows, we disclaim all warranties, express or
            implied, including warranties of merchantability, fitness for a particular purpose, non-infringement and
            uninterrupted or error-free operation.
          </p>
          <p>
            Packgate depends on services we do not control, including your code host, Stripe, e-mail delivery and the
            Composer client used by your license holders. We are not responsible for their availability or behaviour.
            Packgate enforces access to your packages; it does not review, test or warrant the packages themselves.
          </p>
        </>
      ),
    },
    {
      id: 'liability',
      title: 'Limitation of Liability',
      body: (
        <>
          <p>
            To the fullest extent the law allows, neither party is liable to the other for indirect, incidental,
            special, consequential or punitive damages, or for lost profits, revenue, data or goodwill, arising out of
            or relating to these Terms or the service, even if advised that such damages were possible.
          </p>
          <p>
            Our total liability for all claims arising out of or relating to these Terms or the service is limited to
            the amounts you paid to Packgate, in subscription fees and platform fees, in the 12 months before the event
            giving rise to the claim. These limits do not apply to liability that cannot be limited by law, such as
            liability for fraud or for death or personal injury caused by negligence.
          </p>
        </>
      ),
    },
    {
      id: 'governing-law',
      title: 'Governing Law',
      body: (
        <p>
          These Terms, and any dispute arising out of or relating to them or to the service, are governed by the laws of
          the State of Delaware, United States, without regard to its conflict-of-laws rules. The state and federal
          courts located in Delaware have exclusive jurisdiction over such disputes, and both parties consent to their
          jurisdiction. Nothing in this section deprives a consumer of the protection of mandatory laws of the country
          where they live, and either party may seek urgent injunctive relief in any competent court.
        </p>
      ),
    },
    {
      id: 'changes-and-contact',
      title: 'Changes to These Terms and Contact',
      body: (
        <>
          <p>
            We may update these Terms as the service and the law evolve. When we make a material change, we will notify
            you by e-mail or in the application at least 30 days before it takes effect, and update the &ldquo;Last
            updated&rdquo; date above. If you continue to use Packgate after a change takes effect, the updated Terms
            apply; if you do not agree with them, you may cancel your subscription before that date.
          </p>
          <p>
            Questions about these Terms, notices and legal requests can be sent to{' '}
            <a className={linkClass} href={`mailto:${supportEmail}`}>
              {supportEmail}
            </a>
            .
          </p>
        </>
      ),
    },
  ];

  return (
    <LegalDocument
      title="Terms of Service"
      lastUpdated={LEGAL_LAST_UPDATED}
      intro={
        <p>
          These Terms of Service (&ldquo;Terms&rdquo;) govern your use of Packgate (&ldquo;Packgate&rdquo;,
          &ldquo;we&rdquo;, &ldquo;us&rdquo;). By creating an account or using the service you agree to them. Please
          read them carefully, together with our{' '}
          <Link className={linkClass} href="/privacy">
            Privacy Policy
          </Link>
          .
        </p>
      }
      sections={sections}
    />
  );
}
