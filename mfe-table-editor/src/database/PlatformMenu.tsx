import { NavLink } from 'react-router-dom';
import { useDashConfig, useProjectRef } from '@dash/shell-sdk';
import { useDatabaseExtensionsQuery } from '../api/extensions';
import { pgNetState } from './pg-net';
import { databasePaths } from './paths';

const linkClass = ({ isActive }: { isActive: boolean }) => `dash-area__link${isActive ? ' is-active' : ''}`;

/**
 * The database menu's "Platform" section (the area's `menuExtra`, drawn after the declared sections):
 * Backups in the hosted variant, Migrations and Wrappers always, Webhooks only once the pg_net extension
 * is installed (spec §2), which only the project's catalog knows. Enabling or disabling an extension
 * refreshes it (same cached list).
 */
export function PlatformMenu() {
  const ref = useProjectRef();
  const { data } = useDatabaseExtensionsQuery({ ref });
  const { mode } = useDashConfig();
  const items: Array<[string, string]> = [
    // Backups are hosted only, like the menu's other hosted-only items.
    ...(mode === 'hosted' ? [['Backups', 'backups'] as [string, string]] : []),
    ['Migrations', 'migrations'],
    ['Wrappers', 'wrappers'],
    ...(pgNetState(data) === 'installed' ? [['Webhooks', 'hooks'] as [string, string]] : []),
  ];
  return (
    <nav className="dash-area__section" aria-label="Platform">
      <h3 className="dash-area__section-title">Platform</h3>
      {items.map(([label, page]) => (
        <NavLink key={page} to={databasePaths.page(ref, page)} className={linkClass}>
          <span>{label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
