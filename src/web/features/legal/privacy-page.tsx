import { SALES_RECORD_RETENTION_YEARS } from '@contract/account';
import { Link } from 'wouter';
import { DATA_DELETION_DAYS, LEGAL_LAST_UPDATED, MINIMUM_AGE } from './legal-constants';
import { LegalDocument, type LegalSection } from './legal-document';
import { useSupportEmail } from './use-support-email';

const linkClass = 'text-primary underline-offset-4 hover:underline';

export function PrivacyPage() {
  const supportEmail = useSupportEmail();
  const mailLink = (
    <a className={linkClass} href={`mailto:${supportEmail}`}>
      {supportEmail}
    </a>
  );

  const sections: LegalSection[] = [
    {
      id: 'scope',
      title: 'Who We Are and What This Policy Covers',
      body: (
        <>
          <p>
            Packgate (&ldquo;Packgate&rdquo;, &ldquo;we&rdquo;, &ldquo;us&rdquo;) is a licensing and access-control
            service for private Composer packages. This policy explains what personal data we handle when sellers use
            the Packgate application and API, when license holders install packages from a Packgate package host, and
            when anyone visits our website.
          </p>
          <p>
            For the data of sellers and website visitors, Packgate is the controller. For the data of license holders
            that a seller adds to Packgate, the seller is the controller and Packgate processes it on the seller&rsquo;s
            behalf, as explained in Section 6.
          </p>
        </>
      ),
    },
    {
      id: 'data-collected',
      title: 'Information We Collect',
      body: (
        <>
          <ul>
            <li>
              <strong>Account data</strong>: your e-mail address, display name, avatar, account type, plan and trial
              dates, and your brand settings (company name, logo, colours, custom domain, support and sender addresses).
            </li>
            <li>
              <strong>Code-host identity</strong>: when you sign in with GitHub or another code host, your username,
              user id, public profile details and e-mail address, and an access token that lets us read the repositories
              you choose. That token is stored encrypted.
            </li>
            <li>
              <strong>Package metadata</strong>: repository names and descriptions, package names, versions, tags,
              branches, commit identifiers and the contents of each version&rsquo;s <code>composer.json</code>.
            </li>
            <li>
              <strong>License-holder e-mails</strong>: the e-mail addresses of the people you grant access to, with the
              licenses, expiry dates, limits and notes you attach to them.
            </li>
            <li>
              <strong>Download logs</strong>: which license downloaded which package version and when, used to enforce
              download limits and to produce your analytics.
            </li>
            <li>
              <strong>Payment information</strong>: card and bank details are collected and held by our payment
              provider, Stripe, not by us. We receive and keep only what we need to manage billing: customer and
              subscription identifiers, plan, amounts, dates and payment status.
            </li>
            <li>
              <strong>Technical data</strong>: server logs with IP addresses, request times and error reports, kept to
              operate and secure the service.
            </li>
          </ul>
          <p>
            Access tokens for Composer and for the API are shown to you once and then stored only as one-way hashes, so
            that not even we can read them back.
          </p>
        </>
      ),
    },
    {
      id: 'repository-contents',
      title: 'Repository Contents',
      body: (
        <p>
          To serve your packages, we keep a mirror of each repository you turn into a package and build a distribution
          archive of each version that license holders install. These copies are stored only to deliver your packages to
          the license holders you authorise, are never used for any other purpose, and are deleted when you delete the
          package or your account. Files you mark with <code>export-ignore</code> in <code>.gitattributes</code> are
          left out of the archives.
        </p>
      ),
    },
    {
      id: 'how-used',
      title: 'How We Use Information',
      body: (
        <>
          <p>We use the information above to:</p>
          <ul>
            <li>create and secure your account and keep you signed in;</li>
            <li>list your repositories, build your packages and serve them to authorised license holders;</li>
            <li>
              check licenses on every Composer request, enforce expiry dates and download limits, and send the e-mails
              you ask us to send, such as access instructions for a temporary license;
            </li>
            <li>run your trial and subscription, and process payments through Stripe;</li>
            <li>show you analytics about your packages and license holders;</li>
            <li>answer support requests and tell you about changes to the service, your plan or these policies;</li>
            <li>detect and prevent abuse, fraud and security incidents, and meet our legal obligations.</li>
          </ul>
          <p>
            We do not use your data or your license holders&rsquo; data for advertising, and we do not profile them.
          </p>
        </>
      ),
    },
    {
      id: 'sharing',
      title: 'How We Share Information',
      body: (
        <>
          <p>
            We never sell personal data, and we do not share it for cross-context behavioural advertising. We share it
            only with service providers that process it for us under written agreements that limit them to our
            instructions:
          </p>
          <ul>
            <li>
              <strong>Hosting and storage providers</strong> that run our servers, databases and file storage;
            </li>
            <li>
              <strong>E-mail delivery providers</strong> that send sign-in links, license e-mails and notices;
            </li>
            <li>
              <strong>Our payment provider, Stripe</strong>, which processes subscription payments and sales.
            </li>
          </ul>
          <p>
            Your code host receives the requests we make to it on your behalf. We may also disclose information when the
            law requires it, to protect the rights and safety of our users or the public, or to a successor in a merger
            or acquisition, which would remain bound by this policy.
          </p>
        </>
      ),
    },
    {
      id: 'license-holders',
      title: "License Holders' Data",
      body: (
        <>
          <p>
            When a seller adds a license holder&rsquo;s e-mail address, issues a license or sells one through Packgate,
            we process that license holder&rsquo;s data on the seller&rsquo;s behalf and on the seller&rsquo;s
            instructions: to send access instructions, check the license when Composer connects, count downloads and
            report usage to the seller. The seller decides why this data is processed and is responsible for having a
            lawful basis for it.
          </p>
          <p>
            If you are a license holder, please direct questions or requests about your data to the seller you bought
            from; their support address appears on their package host and in the e-mails you receive. We will help the
            seller answer your request, and if you contact us directly we will forward it to them.
          </p>
        </>
      ),
    },
    {
      id: 'cookies',
      title: 'Cookies',
      body: (
        <>
          <p>
            Packgate uses only cookies that are strictly necessary for the service: a session cookie that keeps you
            signed in, and a security cookie that protects forms against cross-site request forgery before you sign in.
            Both are first-party, marked HttpOnly, and expire when your session ends or times out. We use no
            advertising, tracking or third-party analytics cookies, so there is nothing to opt out of.
          </p>
          <p>
            Your light or dark theme preference is stored in your browser&rsquo;s local storage and never sent to us.
            Checkout and billing pages served by Stripe set their own cookies under Stripe&rsquo;s privacy policy.
          </p>
        </>
      ),
    },
    {
      id: 'security',
      title: 'Security',
      body: (
        <p>
          We protect data in transit with TLS and limit access to it to the people and systems that need it. Code-host
          tokens are encrypted at rest; Composer tokens, API tokens and sign-in links are stored only as hashes;
          sessions expire after inactivity; and every request is checked against the account it belongs to. No system is
          perfectly secure, so if we learn of a breach that affects your personal data, we will notify you and the
          relevant authorities as the law requires. You can report a security concern to {mailLink}.
        </p>
      ),
    },
    {
      id: 'retention',
      title: 'Data Retention and Deletion',
      body: (
        <>
          <p>
            We keep your data for as long as your account is open. You can delete packages, licenses and license holders
            at any time, and you can ask us to delete your account by writing to {mailLink}. When your account is
            deleted, we remove your personal data, your license holders&rsquo; data, your repository mirrors and your
            package archives from our systems within {DATA_DELETION_DAYS} days.
          </p>
          <p>
            The owner of an organisation can download all of its data at any time on the Settings page (Download export:
            data.json and a CSV file per list), and close the account there. Closing revokes every license and token at
            once. The personal data (your e-mail address and name, your license holders&rsquo; and buyers&rsquo; e-mail
            addresses, the networks downloads came from, your brand&rsquo;s logo) is kept for {DATA_DELETION_DAYS} days
            after closing, during which you can still sign in and download the export, and is then erased. Sales records
            (amounts, dates, currency, invoice numbers) are kept for {SALES_RECORD_RETENTION_YEARS} years, as tax law
            requires, without the buyer&rsquo;s e-mail address. A license holder can download their own licenses and
            downloads from a seller&rsquo;s license portal.
          </p>
          <p>
            We may keep a limited set of records for longer where the law requires it, such as invoices and payment
            records for tax purposes, or where they are needed to resolve a dispute or prevent abuse. Those records are
            kept only for that purpose and deleted when it ends.
          </p>
        </>
      ),
    },
    {
      id: 'children',
      title: "Children's Privacy",
      body: (
        <p>
          Packgate is a service for businesses and developers. You must be at least {MINIMUM_AGE} years old to use it or
          to receive access to packages through it, and we do not knowingly collect personal data from children under{' '}
          {MINIMUM_AGE}. If you believe a child under {MINIMUM_AGE} has given us personal data, contact us at {mailLink}{' '}
          and we will delete it.
        </p>
      ),
    },
    {
      id: 'ccpa',
      title: 'Your California Privacy Rights (CCPA)',
      body: (
        <>
          <p>
            If you live in California, the California Consumer Privacy Act, as amended by the California Privacy Rights
            Act, gives you the right to know what personal information we collect, use and disclose; to access it and
            receive a copy; to correct it; and to have it deleted, subject to the exceptions in the law. The categories
            we collect, their sources and purposes, and the service providers we disclose them to are described in
            Sections 2 to 5.
          </p>
          <p>
            We do not sell personal information and do not share it for cross-context behavioural advertising, so there
            is nothing to opt out of, and we do not use sensitive personal information to infer characteristics about
            you. We will not treat you differently for exercising your rights. To make a request, write to {mailLink}.
            We will verify your identity by the e-mail address on your account and answer within 45 days. You may also
            act through an authorised agent.
          </p>
        </>
      ),
    },
    {
      id: 'gdpr',
      title: 'Your Rights in the EEA and the UK (GDPR)',
      body: (
        <>
          <p>
            If you are in the European Economic Area, the United Kingdom or Switzerland, we process your data on the
            following legal bases: to perform our contract with you (running your account, your packages and your
            subscription); to meet legal obligations (tax and accounting records); and for our legitimate interests in
            keeping the service secure and preventing abuse, which we balance against your rights.
          </p>
          <p>
            You have the right to access your personal data, to correct it, to have it erased, to restrict or object to
            its processing, and to receive it in a portable format. You may exercise these rights by writing to{' '}
            {mailLink}; we answer within one month. You also have the right to lodge a complaint with the data
            protection authority where you live or work.
          </p>
        </>
      ),
    },
    {
      id: 'international-transfers',
      title: 'International Data Transfers',
      body: (
        <p>
          Packgate is operated from the United States, and our service providers may process data in the United States
          and other countries whose data-protection laws differ from those where you live. When we transfer personal
          data out of the EEA, the United Kingdom or Switzerland, we rely on the European Commission&rsquo;s Standard
          Contractual Clauses, the UK International Data Transfer Addendum, or an adequacy decision such as the EU-U.S.
          Data Privacy Framework where the recipient participates in it.
        </p>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to This Policy',
      body: (
        <p>
          We may update this policy when our service or the law changes. We will post the new version on this page and
          update the &ldquo;Last updated&rdquo; date above; when a change is material, we will also tell sellers by
          e-mail or in the application before it takes effect. Read it together with our{' '}
          <Link className={linkClass} href="/terms">
            Terms of Service
          </Link>
          .
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Contact Us',
      body: (
        <p>
          For any question about this policy or your personal data, or to exercise any of the rights described above,
          write to us at {mailLink}. We read every message and will reply as quickly as we can, and always within the
          time the law allows.
        </p>
      ),
    },
  ];

  return (
    <LegalDocument
      title="Privacy Policy"
      lastUpdated={LEGAL_LAST_UPDATED}
      intro={
        <p>
          Your packages and your customers are your business, and we treat the data behind them that way. This policy
          describes, in plain terms, what we collect, why, who else sees it, how long we keep it, and the rights you
          have over it.
        </p>
      }
      sections={sections}
    />
  );
}
