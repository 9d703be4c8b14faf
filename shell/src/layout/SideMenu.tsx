import { NavLink } from 'react-router-dom';
import type { RegistryRemote } from '@dash/contracts';
import { AreaIcon } from './icons';

/** One item per registry remote, in registry order. */
export function SideMenu({ projectRef, remotes }: { projectRef: string; remotes: RegistryRemote[] }) {
  return (
    <aside className="shell-menu" aria-label="Project menu">
      <nav>
        <ul>
          {remotes.map((remote) => (
            <li key={remote.name}>
              <NavLink
                to={`/project/${projectRef}/${remote.mount}`}
                className={({ isActive }) => `shell-menu__link${isActive ? ' is-active' : ''}`}
              >
                <AreaIcon mount={remote.mount} />
                <span>{remote.title}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}
