import { useLocation } from 'wouter';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LAPSED_SUBSCRIPTION_GRACE_DAYS } from '../../lib/constants';
import { useCancelSubscription } from './billing-hooks';

/**
 * Cancel Subscription (spec admin §2, §4): the plan ends at the end of the paid period, then the browser goes
 * to /billing?cancelled=true.
 */
export function CancelSubscriptionDialog({
  open,
  onOpenChange,
  planName,
  periodEnd,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  planName: string | undefined;
  /** The end of the paid period, already formatted. */
  periodEnd: string | undefined;
}) {
  const [, navigate] = useLocation();
  const cancel = useCancelSubscription(() => {
    onOpenChange(false);
    navigate('/billing?cancelled=true');
  });
  const plan = planName ? `Your ${planName} plan` : 'Your plan';
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      variant="warning"
      title="Cancel Subscription"
      description={
        <>
          {plan} stays active until {periodEnd ?? 'the end of the period you have paid for'}, and you are not charged
          again. After that your license holders keep installing for {LAPSED_SUBSCRIPTION_GRACE_DAYS} days, then your
          repository stops serving until you subscribe again. You can reactivate before the period ends.
        </>
      }
      cancelText="Keep Subscription"
      confirmText={cancel.isPending ? 'Cancelling...' : 'Cancel Subscription'}
      isPending={cancel.isPending}
      onConfirm={() => cancel.mutate()}
    />
  );
}
