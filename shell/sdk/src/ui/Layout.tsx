import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import type { MenuBadge } from '@dash/contracts';

export interface AreaNavItem {
  label: string;
  to: string;
  badge?: MenuBadge;
  /** Active only on exactly this path (an item whose path prefixes the others'). */
  end?: boolean;
}

export interface AreaNavSection {
  title?: string;
  items: AreaNavItem[];
}

/**
 * A secondary menu: a title and sections of links, each with an optional BETA/ALPHA badge, and `extra`
 * below them (entries an area only knows at run time).
 */
export function MenuSections({ title, sections, extra }: { title: string; sections: AreaNavSection[]; extra?: ReactNode }) {
  return (
    <aside className="dash-area__menu" aria-label={`${title} menu`}>
      <h2 className="dash-area__title">{title}</h2>
      {sections
        .filter((section) => section.items.length > 0)
        .map((section, index) => (
          <nav key={section.title ?? index} className="dash-area__section" aria-label={section.title}>
            {section.title && <h3 className="dash-area__section-title">{section.title}</h3>}
            {section.items.map((item) => (
              <NavLink key={item.to} to={item.to} end={item.end} className={({ isActive }) => `dash-area__link${isActive ? ' is-active' : ''}`}>
                <span>{item.label}</span>
                {item.badge && <span className="dash-area__badge">{item.badge}</span>}
              </NavLink>
            ))}
          </nav>
        ))}
      {extra}
    </aside>
  );
}

/** An area's own frame: a secondary menu on the left (optional: `nav` or `sections`, and `menuExtra`) and the content. */
export function AreaLayout({ title, nav, sections, menuExtra, children }: {
  title: string;
  nav?: AreaNavItem[];
  sections?: AreaNavSection[];
  menuExtra?: ReactNode;
  children: ReactNode;
}) {
  const menu = sections ?? (nav ? [{ items: nav }] : undefined);
  return (
    <div className="dash-area">
      {menu && <MenuSections title={title} sections={menu} extra={menuExtra} />}
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
