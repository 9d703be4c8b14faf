import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage, useDashConfig, useFeatureFlag, useToast } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { INCIDENT_BANNER_TEXT } from '@dash/contracts';
import { useSessionQuery, useSignOutMutation } from '../api/session';
import { SELF_HOSTED_HOME } from './HostedOnly';
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
  const incident = useFeatureFlag('ongoingIncident');
  const { mode } = useDashConfig();
  const hosted = mode === 'hosted';
  return (
    <>
      {incident && (
        <div className="shell-incident" role="status">
          {INCIDENT_BANNER_TEXT}
        </div>
      )}
      <header className="shell-topbar">
        <Link to={hosted ? '/projects' : SELF_HOSTED_HOME} className="shell-topbar__home" aria-label={hosted ? 'All projects' : 'Project'}>
          <Logo compact />
        </Link>
        <span className="shell-topbar__divider" aria-hidden />
        <nav className="shell-topbar__breadcrumb" aria-label="Breadcrumb">
          {children ?? <span className="shell-topbar__crumb is-current">Projects</span>}
        </nav>
        <div className="shell-topbar__user">
          {/* The account menu is hosted only (§2): self-hosted shows who is signed in, without links. */}
          {session && hosted && (
            <Link to="/account/me" className="shell-topbar__email" title={`${session.user.name}: account preferences`} aria-label="Account">
              <Avatar name={session.user.name || session.user.email} />
              {session.user.email}
            </Link>
          )}
          {session && !hosted && (
            <span className="shell-topbar__email" title={session.user.name}>
              <Avatar name={session.user.name || session.user.email} />
              {session.user.email}
            </span>
          )}
          <Button size="sm" variant="ghost" onClick={signOut} loading={signingOut}>
            Sign out
          </Button>
        </div>
      </header>
    </>
  );
}

function Avatar({ name }: { name: string }) {
  return (
    <span className="shell-topbar__avatar" aria-hidden>
      {name.charAt(0).toUpperCase()}
    </span>
  );
}
