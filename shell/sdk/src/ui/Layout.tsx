import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';

export interface AreaNavItem {
  label: string;
  to: string;
}

/** An area's own frame: a secondary menu on the left (optional) and the content. */
export function AreaLayout({ title, nav, children }: { title: string; nav?: AreaNavItem[]; children: ReactNode }) {
  return (
    <div className="dash-area">
      {nav && (
        <aside className="dash-area__menu" aria-label={`${title} menu`}>
          <h2 className="dash-area__title">{title}</h2>
          <nav>
            {nav.map((item) => (
              <NavLink key={item.to} to={item.to} className={({ isActive }) => `dash-area__link${isActive ? ' is-active' : ''}`}>
                {item.label}
              </NavLink>
            ))}
          </nav>
        </aside>
      )}
      <section className="dash-area__content">{children}</section>
    </div>
  );
}

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="dash-page-header">
      <div>
        <h1>{title}</h1>
        {description && <p>{description}</p>}
      </div>
      {actions && <div className="dash-page-header__actions">{actions}</div>}
    </header>
  );
}
