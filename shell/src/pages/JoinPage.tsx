import { useEffect, useId } from 'react';
import { Field, Form } from 'react-final-form';
import { useDispatch } from 'react-redux';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { baseApi, errorMessage, useToast } from '@dash/shell-sdk';
import { Button, FieldError, shownError, Spinner } from '@dash/shell-sdk/ui';
import {
  joinPath,
  NEW_ACCOUNT_PASSWORD_MIN,
  OrganizationMessages,
  ROLE_LABELS,
  type InvitationPreview,
  type User,
} from '@dash/contracts';
import { useAcceptInvitationMutation, usePreviewInvitationMutation, useSignUpWithInvitationMutation } from '../api/invitations';
import { useSessionQuery, useSignOutMutation } from '../api/session';
import { Logo } from '../layout/Logo';
import { signInPath } from '../session/returnTo';
import '../org/org.css';

/**
 * `/join?token=…`: the invitation's accept link. A signed-in user whose email it names accepts it; an
 * email with no account sets a name and password (the account is made, joins and is signed in); an email
 * with an account signs in first; anyone else is told whom it is for.
 */
export function JoinPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [preview, invitation] = usePreviewInvitationMutation();
  const session = useSessionQuery();

  useEffect(() => {
    document.title = 'Join an organization | Dashboard';
    if (token) void preview({ token });
  }, [token, preview]);

  let content;
  if (!token) content = <Problem title="This invitation link is incomplete" message="Open the whole link you were sent, or ask for a new invitation." />;
  else if (invitation.isError) content = <Problem title="This invitation cannot be used" message={errorMessage(invitation.error, OrganizationMessages.invitationInvalid)} />;
  else if (!invitation.data || session.isLoading) content = <Spinner label="Checking your invitation" />;
  else content = <Invitation token={token} invitation={invitation.data} user={session.data?.user} />;

  return (
    <div className="shell-simple-page">
      <header className="shell-simple-page__header">
        <Link to="/projects" aria-label="Dashboard home">
          <Logo />
        </Link>
      </header>
      <main className="shell-simple-page__main">
        <div className="dash-card org-join">{content}</div>
      </main>
    </div>
  );
}

function Problem({ title, message }: { title: string; message: string }) {
  return (
    <div role="alert">
      <h1>{title}</h1>
      <p className="org-join__lead">{message}</p>
      <Link to="/projects">Go to your projects</Link>
    </div>
  );
}

function Invitation({ token, invitation, user }: { token: string; invitation: InvitationPreview; user: User | undefined }) {
  const header = (
    <>
      <h1>Join {invitation.organization_name}</h1>
      <p className="org-join__lead">
        You are invited to join <strong>{invitation.organization_name}</strong> as <strong>{ROLE_LABELS[invitation.role]}</strong>.
      </p>
      <p className="org-muted">
        For {invitation.email} · expires {new Date(invitation.expires_at).toLocaleString()}
      </p>
    </>
  );
  if (user && user.email === invitation.email) return <>{header}<AcceptButton token={token} invitation={invitation} /></>;
  if (user) return <>{header}<WrongAccount token={token} user={user} invitation={invitation} /></>;
  if (invitation.account_exists) {
    return (
      <>
        {header}
        <Link className="dash-btn dash-btn--primary org-join__action" to={signInPath(joinPath(token))}>
          Sign in to accept
        </Link>
      </>
    );
  }
  return <>{header}<SignUpForm token={token} invitation={invitation} /></>;
}

function useJoined() {
  const toast = useToast();
  const navigate = useNavigate();
  return (invitation: InvitationPreview) => {
    toast('success', OrganizationMessages.joined(invitation.organization_name));
    navigate(`/org/${invitation.organization_slug}`, { replace: true });
  };
}

function AcceptButton({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const [accept, { isLoading }] = useAcceptInvitationMutation();
  const toast = useToast();
  const joined = useJoined();
  const onAccept = async () => {
    const result = await accept({ token });
    if ('error' in result) toast('error', OrganizationMessages.joinFailed(errorMessage(result.error)));
    else joined(invitation);
  };
  return (
    <Button variant="primary" className="org-join__action" onClick={() => void onAccept()} loading={isLoading}>
      Accept invitation
    </Button>
  );
}

function WrongAccount({ token, user, invitation }: { token: string; user: User; invitation: InvitationPreview }) {
  const [signOut, { isLoading: signingOut }] = useSignOutMutation();
  const toast = useToast();
  // Back to this page after signing out, as a full load: nothing of the previous session stays in memory.
  const onSignOut = async () => {
    const result = await signOut();
    if ('error' in result) toast('error', `Failed to sign out: ${errorMessage(result.error)}`);
    else window.location.assign(joinPath(token));
  };
  return (
    <div className="org-join__problem" role="note">
      <p>
        You are signed in as <strong>{user.email}</strong>. {OrganizationMessages.invitationForAnotherEmail(invitation.email)}
      </p>
      <Button onClick={() => void onSignOut()} loading={signingOut}>
        Sign out
      </Button>
    </div>
  );
}

interface Values {
  name: string;
  password: string;
  confirm: string;
}

function SignUpForm({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const id = useId();
  const dispatch = useDispatch();
  const [signUp] = useSignUpWithInvitationMutation();
  const joined = useJoined();

  const onSubmit = async (values: Values) => {
    const result = await signUp({ token, name: values.name.trim(), password: values.password });
    if ('error' in result) return { confirm: OrganizationMessages.joinFailed(errorMessage(result.error)) };
    // A new session: nothing cached for the signed-out visitor may carry over.
    dispatch(baseApi.util.resetApiState());
    joined(invitation);
    return undefined;
  };

  const fields: Array<{ name: keyof Values; label: string; type: string; autoComplete: string }> = [
    { name: 'name', label: 'Your name', type: 'text', autoComplete: 'name' },
    { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password' },
    { name: 'confirm', label: 'Confirm password', type: 'password', autoComplete: 'new-password' },
  ];

  return (
    <Form<Values>
      initialValues={{ name: '', password: '', confirm: '' }}
      validate={(values) => ({
        name: (values.name ?? '').trim() ? undefined : OrganizationMessages.nameOfPersonRequired,
        password: (values.password ?? '').length >= NEW_ACCOUNT_PASSWORD_MIN ? undefined : OrganizationMessages.passwordTooShort,
        confirm: values.confirm === values.password ? undefined : OrganizationMessages.passwordsDiffer,
      })}
      onSubmit={onSubmit}
      subscription={{ submitting: true }}
    >
      {({ handleSubmit, submitting }) => (
        <form className="org-join__form" onSubmit={handleSubmit} noValidate aria-label="Create your account">
          <p className="org-muted">Create your account to join: your email is {invitation.email}.</p>
          {fields.map((field) => (
            <Field<string> key={field.name} name={field.name}>
              {({ input, meta }) => {
                const error = shownError(meta) ?? (meta.submitError as string | undefined);
                return (
                  <div className="dash-field">
                    <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
                    <input
                      {...input}
                      id={`${id}-${field.name}`}
                      type={field.type}
                      autoComplete={field.autoComplete}
                      className="dash-input"
                      aria-invalid={Boolean(error) || undefined}
                      aria-describedby={error ? `${id}-${field.name}-error` : undefined}
                    />
                    {error && <FieldError id={`${id}-${field.name}-error`} error={error} />}
                  </div>
                );
              }}
            </Field>
          ))}
          <Button type="submit" variant="primary" className="org-join__action" loading={submitting}>
            Create account and join
          </Button>
        </form>
      )}
    </Form>
  );
}
