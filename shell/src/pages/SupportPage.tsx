import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, TextField } from '@dash/shell-sdk/ui';
import { Logo } from '../layout/Logo';

export const SUPPORT_EMAIL = 'support@example.com';

export function mailtoHref(subject: string, message: string): string {
  // encodeURIComponent, not URLSearchParams: mail clients want %20, not '+', for spaces.
  return `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(message)}`;
}

function initialMessage(code: string | null, message: string | null): string {
  if (!code && !message) return '';
  const lines = ['', '', '---', code ? `Error code: ${code}` : null, message ? `Error message: ${message}` : null];
  return lines.filter((l) => l !== null).join('\n');
}

/** `/support/new?code=&message=`: compose a support request, sent from the user's own mail client. */
export function SupportPage() {
  const [params] = useSearchParams();
  const code = params.get('code');
  const errorText = params.get('message');
  const [subject, setSubject] = useState(code ? `Dashboard error ${code}` : '');
  const [message, setMessage] = useState(() => initialMessage(code, errorText));
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!subject.trim() || !message.trim()) {
      setProblem('Add a subject and a message');
      return;
    }
    setProblem(null);
    window.location.href = mailtoHref(subject.trim(), message);
  };

  return (
    <div className="shell-simple-page">
      <header className="shell-simple-page__header">
        <Link to="/projects" aria-label="All projects">
          <Logo />
        </Link>
      </header>
      <main className="shell-simple-page__main">
        <form className="shell-support" onSubmit={onSubmit} noValidate>
          <h1>Submit a support request</h1>
          <p className="shell-support__intro">
            Tell us what happened and we will get back to you by email. Sending opens your mail client with a draft to{' '}
            <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>; nothing is sent until you send it there.
          </p>
          <TextField label="Subject" name="subject" value={subject} onChange={(e) => setSubject(e.target.value)} required />
          <div className="dash-field">
            <label htmlFor="shell-support-message">Message</label>
            <textarea
              id="shell-support-message"
              className="dash-textarea shell-support__message"
              name="message"
              rows={10}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              placeholder="What were you doing, and what did you expect to happen?"
              required
            />
          </div>
          {problem && (
            <p className="shell-support__problem" role="alert">
              {problem}
            </p>
          )}
          <div className="shell-support__actions">
            <Button type="submit" variant="primary">
              Open in mail client
            </Button>
            <Link to="/projects">Back to projects</Link>
          </div>
        </form>
      </main>
    </div>
  );
}
