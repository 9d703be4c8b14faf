import { useState, type FormEvent } from 'react';
import { useDispatch } from 'react-redux';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { baseApi, errorMessage } from '@dash/shell-sdk';
import { Button, Spinner, TextField } from '@dash/shell-sdk/ui';
import type { SessionAssurance } from '@dash/contracts';
import { useSessionQuery, useSignInMutation } from '../api/session';
import { safeReturnTo, signInMfaPath } from '../session/returnTo';
import { SignInFrame } from './SignInFrame';

/** `/sign-in`: email and password, in the sign-in frame. */
export function SignInPage() {
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  // Always ask the server: a cached answer may predate an expired session (which is why we are here).
  // Only an answer that arrived after this page mounted counts.
  const [mountedAt] = useState(() => Date.now());
  const session = useSessionQuery(undefined, { refetchOnMountOrArgChange: true });
  const fresh = (session.fulfilledTimeStamp ?? 0) >= mountedAt;

  // §4: with a session, the multi-factor check decides: its code still missing, the MFA step; else onwards.
  if (session.isSuccess && fresh && !session.isFetching) return <Navigate to={afterSignIn(session.data, returnTo)} replace />;
  const checking = !session.isError && !(session.isSuccess && fresh);

  return <SignInFrame>{checking ? <Spinner label="Checking your session" /> : <SignInForm returnTo={returnTo} />}</SignInFrame>;
}

/** Where a signed-in session goes next: the MFA step while its level is below its user's, else `returnTo`. */
function afterSignIn(assurance: SessionAssurance, returnTo: string): string {
  return assurance.aal !== assurance.nextLevel ? signInMfaPath(returnTo) : returnTo;
}

function SignInForm({ returnTo }: { returnTo: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [signIn, { isLoading }] = useSignInMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError('Enter your email and password');
      return;
    }
    setError(null);
    const result = await signIn({ email: email.trim(), password });
    if ('error' in result) {
      setError(errorMessage(result.error, 'Could not sign in'));
      return;
    }
    navigate(afterSignIn(result.data, returnTo), { replace: true });
    // A new session: nothing cached for a previous one may leak into it.
    dispatch(baseApi.util.resetApiState());
  };

  return (
    <form className="shell-signin__form" onSubmit={onSubmit} noValidate aria-describedby={error ? 'shell-signin-error' : undefined}>
      <h1>Welcome back</h1>
      <p className="shell-signin__subtitle">Sign in to your account</p>
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        placeholder="you@example.com"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        autoFocus
      />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        placeholder="••••••••"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {error && (
        <p id="shell-signin-error" className="shell-signin__error" role="alert">
          {error}
        </p>
      )}
      <Button type="submit" variant="primary" className="shell-signin__submit" loading={isLoading}>
        Sign in
      </Button>
    </form>
  );
}
