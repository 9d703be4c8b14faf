import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '../layout/Logo';

function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <div className="shell-simple-page">
      <header className="shell-simple-page__header">
        <Link to="/sign-in" aria-label="Sign in">
          <Logo />
        </Link>
      </header>
      <main className="shell-simple-page__main">
        <article className="shell-legal">
          <h1>{title}</h1>
          <p className="shell-legal__updated">Last updated {updated}</p>
          {children}
          <p className="shell-legal__back">
            <Link to="/sign-in">Back to sign in</Link>
          </p>
        </article>
      </main>
    </div>
  );
}

export function TermsPage() {
  return (
    <LegalPage title="Terms of Service" updated="1 January 2025">
      <p>
        These terms govern your use of the dashboard and the database projects you manage with it. By signing in you
        agree to them on behalf of yourself and the organization you belong to.
      </p>
      <h2>Your account</h2>
      <p>
        Keep your credentials private and tell your organization owner at once if you believe someone else has used
        your account. You are responsible for what happens under your account.
      </p>
      <h2>Your data</h2>
      <p>
        The data in your projects belongs to your organization. We process it only to run the service: storing it,
        backing it up and showing it to members you have invited.
      </p>
      <h2>Acceptable use</h2>
      <p>
        Do not use the service to break the law, to attack other systems, or to store content you have no right to
        store. We may suspend projects that put the platform or other customers at risk.
      </p>
      <h2>Changes</h2>
      <p>We will announce material changes to these terms at least 30 days before they take effect.</p>
    </LegalPage>
  );
}

export function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy" updated="1 January 2025">
      <p>This policy explains what we collect when you use the dashboard, why, and what choices you have.</p>
      <h2>What we collect</h2>
      <p>
        Your name, email address and a hash of your password; the organizations and projects you belong to; and
        request logs (time, path, status, IP address) that we keep to run and secure the service.
      </p>
      <h2>Cookies</h2>
      <p>
        We set a single session cookie when you sign in. It is httpOnly, limited to this site, and removed when you
        sign out. We use no advertising or tracking cookies.
      </p>
      <h2>Your choices</h2>
      <p>
        You can ask for a copy of your personal data, or for its deletion, by writing to{' '}
        <a href="mailto:support@example.com">support@example.com</a>.
      </p>
    </LegalPage>
  );
}
