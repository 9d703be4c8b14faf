import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '../layout/Logo';
import { pickTestimonial } from './testimonials';

/**
 * The spec's sign-in frame, for each step of signing in (password, MFA code): the brand and the step's
 * form on the left, a random testimonial with terms and privacy on the right.
 */
export function SignInFrame({ children }: { children: ReactNode }) {
  return (
    <div className="shell-signin">
      <section className="shell-signin__form-side">
        <header className="shell-signin__brand">
          <Link to="/projects" aria-label="Dashboard home">
            <Logo />
          </Link>
        </header>
        <div className="shell-signin__form-wrap">{children}</div>
      </section>
      <Testimonial />
    </div>
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
