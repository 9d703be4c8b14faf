import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button, errorMessage, useToast } from '@dash/shell-sdk';
import { useSessionQuery, useSignOutMutation } from '../api/session';
import { Logo } from './Logo';

/**
 * Sign out, then load the sign-in page afresh: a full page load drops everything the previous user's
 * session put in memory (RTK Query cache, slices remotes injected, loaded remote code).
 */
export function useSignOut() {
  const [signOut, { isLoading }] = useSignOutMutation();
  const toast = useToast();
  const run = async () => {
    const result = await signOut();
    if ('error' in result) {
      toast('error', `Failed to sign out: ${errorMessage(result.error)}`);
      return;
    }
    window.location.assign('/sign-in');
  };
  return [run, isLoading] as const;
}

/** The 48px bar over every signed-in page: home, breadcrumb, who is signed in, sign out. */
export function TopBar({ children }: { children?: ReactNode }) {
  const { data: session } = useSessionQuery();
  const [signOut, signingOut] = useSignOut();
  return (
    <header className="shell-topbar">
      <Link to="/projects" className="shell-topbar__home" aria-label="All projects">
        <Logo compact />
      </Link>
      <span className="shell-topbar__divider" aria-hidden />
      <nav className="shell-topbar__breadcrumb" aria-label="Breadcrumb">
        {children ?? <span className="shell-topbar__crumb is-current">Projects</span>}
      </nav>
      <div className="shell-topbar__user">
        {session && (
          <span className="shell-topbar__email" title={session.user.name}>
            <span className="shell-topbar__avatar" aria-hidden>
              {(session.user.name || session.user.email).charAt(0).toUpperCase()}
            </span>
            {session.user.email}
          </span>
        )}
        <Button size="sm" variant="ghost" onClick={signOut} loading={signingOut}>
          Sign out
        </Button>
      </div>
    </header>
  );
}
