import { ChevronDown } from 'lucide-react';
import { LAPSED_SUBSCRIPTION_GRACE_DAYS } from '../../lib/constants';

const faq = (trialDays: number, billingEnabled: boolean) => [
  {
    question: 'How does the free trial work?',
    answer: `Every new account starts with a ${trialDays}-day free trial of the plan it picks, with no credit card. You can use everything the plan includes and subscribe at any time during the trial; nothing is charged until you do.`,
  },
  {
    question: 'How am I billed?',
    answer: billingEnabled
      ? 'Plans are billed monthly in US dollars, in advance, by Stripe, our payment provider. Your card is charged on the same day each month until you cancel.'
      : 'Billing is off on this installation: choosing a plan activates it at once and nothing is charged. Where billing is on, plans are billed monthly in US dollars, in advance, by Stripe.',
  },
  {
    question: 'Where are my invoices, and what about taxes?',
    answer:
      'Stripe issues an invoice or receipt for every payment. Open Manage Billing on the Billing page to download them, update your card or change your billing details. If tax applies to your purchase, it is shown at checkout and on the invoice.',
  },
  {
    question: 'Can I change my plan later?',
    answer:
      'Yes. Open Change Your Plan from the Billing page and pick another plan. The new plan’s limits apply as soon as its checkout completes; your packages, licenses and branding stay as they are.',
  },
  {
    question: 'What happens when I reach my plan’s limits?',
    answer:
      'Packages and license holders you already have keep working. Adding another package or license holder beyond the plan’s limit is refused with a message that names the limit, until you move to a larger plan.',
  },
  {
    question: 'How do I cancel?',
    answer:
      'Choose Cancel Subscription on this page or on the Billing page, or use Manage Billing. Your plan stays active until the end of the period you have paid for and is not renewed; you can reactivate it before then.',
  },
  {
    question: 'What happens to my license holders if my subscription lapses?',
    answer: `When a trial or subscription ends without renewal, your license holders keep installing and updating for a grace period of ${LAPSED_SUBSCRIPTION_GRACE_DAYS} days, and Composer shows them a warning during that time. After the grace period your repository stops serving packages until you subscribe again. Nothing is deleted: packages, licenses and settings come back as they were.`,
  },
];

/** Questions sellers ask before paying, answered for this product. */
export function SubscribeFaq({ trialDays, billingEnabled }: { trialDays: number; billingEnabled: boolean }) {
  return (
    <section aria-labelledby="subscribe-faq" className="mx-auto max-w-3xl">
      <h2 id="subscribe-faq" className="text-center text-2xl font-bold tracking-tight">
        Frequently Asked Questions
      </h2>
      <div className="mt-6 divide-y rounded-lg border bg-card">
        {faq(trialDays, billingEnabled).map((item) => (
          <details key={item.question} className="group px-5 py-4 [&_summary::-webkit-details-marker]:hidden">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-medium">
              {item.question}
              <ChevronDown
                className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
                aria-hidden="true"
              />
            </summary>
            <p className="mt-3 text-sm leading-6 text-muted-foreground">{item.answer}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
