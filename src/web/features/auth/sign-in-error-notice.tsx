import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { toast } from '../../components/ui/use-toast';
import { readSignInQuery, withoutSignInParams } from './sign-in-params';

/** A GitHub sign-in that failed lands on `/?error={code}`: say why once, then clean the address. */
export function SignInErrorNotice() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const query = readSignInQuery(search);
  const message = query.isEmailSignIn ? undefined : query.errorMessage;

  useEffect(() => {
    if (!message) return;
    toast({ variant: 'destructive', title: 'Sign-in failed', description: message });
    navigate(`${location}${withoutSignInParams(search)}`, { replace: true });
  }, [message, location, search, navigate]);

  return null;
}
