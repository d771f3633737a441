import { Button, type ButtonProps } from '@web/components/ui/button';
import type { CallToAction } from '@web/lib/subscriptions/call-to-action';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

type CallToActionButtonProps = Pick<ButtonProps, 'size' | 'variant' | 'className'> & {
  action: CallToAction;
  children?: ReactNode;
};

/** Sign-in is a server route and needs a full page load; app pages navigate on the client. */
export function CallToActionButton({ action, children, ...buttonProps }: CallToActionButtonProps) {
  return (
    <Button asChild {...buttonProps}>
      {action.isServerRoute ? (
        <a href={action.href}>
          {action.label}
          {children}
        </a>
      ) : (
        <Link href={action.href}>
          {action.label}
          {children}
        </Link>
      )}
    </Button>
  );
}
