import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { Field, Form } from 'react-final-form';
import { FORM_ERROR } from 'final-form';
import { baseApi, errorMessage } from '@dash/shell-sdk';
import { Button, shownError, Spinner, TextField } from '@dash/shell-sdk/ui';
import { AccountMessages } from '@dash/contracts';
import { useVerifyMfaMutation } from '../api/account';
import { useSessionQuery } from '../api/session';
import { useSignOut } from '../layout/TopBar';
import { safeReturnTo, signInPath } from '../session/returnTo';
import { SignInFrame } from './SignInFrame';
import '../account/account.css';

/**
 * `/sign-in-mfa` (§4): a session at aal1 whose user has a factor proves it with a TOTP or recovery code,
 * which raises it to aal2; then on to `returnTo`. Without a session, back to sign-in; a session that needs
 * no code goes straight on.
 */
export function SignInMfaPage() {
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  // Only an answer given after this page mounted counts (the cached one may predate the password step).
  const [mountedAt] = useState(() => Date.now());
  const session = useSessionQuery(undefined, { refetchOnMountOrArgChange: true });
  const fresh = (session.fulfilledTimeStamp ?? 0) >= mountedAt && !session.isFetching;

  if (session.isError) return <Navigate to={signInPath(returnTo)} replace />;
  if (session.isSuccess && fresh && session.data.aal === session.data.nextLevel) return <Navigate to={returnTo} replace />;
  return <SignInFrame>{session.isSuccess && fresh ? <MfaForm returnTo={returnTo} email={session.data.user.email} /> : <Spinner label="Checking your session" />}</SignInFrame>;
}

interface CodeValues {
  code?: string;
}

function MfaForm({ returnTo, email }: { returnTo: string; email: string }) {
  const [recovery, setRecovery] = useState(false);
  const [verify] = useVerifyMfaMutation();
  const [signOut, signingOut] = useSignOut();
  const dispatch = useDispatch();
  const navigate = useNavigate();

  const onSubmit = async ({ code = '' }: CodeValues) => {
    // Authenticator apps show "123 456"; recovery codes keep their dash (the platform ignores case and spacing).
    const result = await verify({ code: recovery ? code.trim() : code.replace(/\s/g, '') });
    if ('error' in result) return { [FORM_ERROR]: errorMessage(result.error, 'Could not verify the code') };
    navigate(returnTo, { replace: true });
    // The session is another now (aal2): nothing cached while it waited for its code may stay.
    dispatch(baseApi.util.resetApiState());
    return undefined;
  };
  const validate = ({ code = '' }: CodeValues) => {
    const value = code.replace(/\s/g, '');
    if (recovery) return value ? {} : { code: 'Please enter a recovery code' };
    return /^\d{6}$/.test(value) ? {} : { code: AccountMessages.codeRequired };
  };

  return (
    <Form<CodeValues>
      onSubmit={onSubmit}
      validate={validate}
      key={recovery ? 'recovery' : 'totp'}
      render={({ handleSubmit, submitting, submitError }) => (
        <form className="shell-signin__form" onSubmit={handleSubmit} noValidate>
          <h1>Two-factor authentication</h1>
          <p className="shell-signin__subtitle">
            {recovery ? 'Enter one of your recovery codes' : 'Enter the code from your authenticator app'} to finish signing in as{' '}
            <strong>{email}</strong>.
          </p>
          <Field<string> name="code">
            {({ input, meta }) => (
              <TextField
                {...input}
                label={recovery ? 'Recovery code' : 'Authentication code'}
                autoComplete="one-time-code"
                inputMode={recovery ? 'text' : 'numeric'}
                placeholder={recovery ? 'xxxxx-xxxxx' : '123456'}
                maxLength={recovery ? 32 : 7}
                className="dash-input account-code-input"
                error={shownError(meta)}
                autoFocus
              />
            )}
          </Field>
          {submitError && (
            <p className="shell-signin__error" role="alert">
              {submitError}
            </p>
          )}
          <Button type="submit" variant="primary" className="shell-signin__submit" loading={submitting}>
            Verify
          </Button>
          <div className="account-signin-links">
            <button type="button" className="account-link-button" onClick={() => setRecovery(!recovery)}>
              {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
            </button>
            <button type="button" className="account-link-button" onClick={signOut} disabled={signingOut}>
              Sign in as someone else
            </button>
          </div>
        </form>
      )}
    />
  );
}
