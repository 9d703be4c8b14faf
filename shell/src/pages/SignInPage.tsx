import { useState, type FormEvent } from 'react';
import { useDispatch } from 'react-redux';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { baseApi, Button, errorMessage, Spinner, TextField } from '@dash/shell-sdk';
import { useSessionQuery, useSignInMutation } from '../api/session';
import { safeReturnTo } from '../session/returnTo';
import { Logo } from '../layout/Logo';
import { pickTestimonial } from './testimonials';

/** The spec's sign-in frame: the form on the left, a random testimonial with terms and privacy on the right. */
export function SignInPage() {
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  // Always ask the server: a cached answer may predate an expired session (which is why we are here).
  // Only an answer that arrived after this page mounted counts.
  const [mountedAt] = useState(() => Date.now());
  const session = useSessionQuery(undefined, { refetchOnMountOrArgChange: true });
  const fresh = (session.fulfilledTimeStamp ?? 0) >= mountedAt;

  if (session.isSuccess && fresh && !session.isFetching) return <Navigate to={returnTo} replace />;
  const checking = !session.isError && !(session.isSuccess && fresh);

  return (
    <div className="shell-signin">
      <section className="shell-signin__form-side">
        <header className="shell-signin__brand">
          <Link to="/projects" aria-label="Dashboard home">
            <Logo />
          </Link>
        </header>
        <div className="shell-signin__form-wrap">
          {checking ? <Spinner label="Checking your session" /> : <SignInForm returnTo={returnTo} />}
        </div>
      </section>
      <Testimonial />
    </div>
  );
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
    navigate(returnTo, { replace: true });
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

function Testimonial() {
  const [quote] = useState(() => pickTestimonial());
  return (
    <aside className="shell-signin__aside" aria-label="What our users say">
      <figure className="shell-signin__quote">
        <span className="shell-signin__quote-mark" aria-hidden>
          “
        </span>
        <blockquote>{quote.text}</blockquote>
        <figcaption>
          {quote.img_url ? (
            <img src={quote.img_url} alt="" className="shell-signin__avatar" />
          ) : (
            <span className="shell-signin__avatar" aria-hidden>
              {quote.handle.replace(/^@/, '').charAt(0).toUpperCase()}
            </span>
          )}
          <a href={quote.url} target="_blank" rel="noreferrer noopener">
            {quote.handle}
          </a>
        </figcaption>
      </figure>
      <nav className="shell-signin__legal" aria-label="Legal">
        <Link to="/terms">Terms of Service</Link>
        <span aria-hidden>·</span>
        <Link to="/privacy">Privacy Policy</Link>
      </nav>
    </aside>
  );
}
