import { useMutation } from '@tanstack/react-query';
import { KeyRound, Loader2 } from 'lucide-react';
import { errorMessage } from '../lib/api-error';
import { signInWithPasskey } from '../lib/passkeys';
import { Button } from './ui/button';
import { toast } from './ui/use-toast';

/**
 * Sign-in with a passkey (issue 33), beside the e-mailed link of the seller's and the admin's sign-in: it completes
 * on its own, then a full page load opens the signed-in person's home.
 */
export function PasskeySignInButton() {
  const passkey = useMutation({
    mutationFn: signInWithPasskey,
    onSuccess: (user) => {
      window.location.href = user.userType === 'admin' ? '/admin' : '/dashboard';
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Passkey sign-in failed',
        description: errorMessage(error, 'Try again.'),
      }),
  });
  return (
    <Button type="button" variant="outline" onClick={() => passkey.mutate()} disabled={passkey.isPending}>
      {passkey.isPending ? <Loader2 className="animate-spin" /> : <KeyRound />}
      Sign in with a Passkey
    </Button>
  );
}
