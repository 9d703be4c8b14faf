import type { ReactNode } from 'react';
import { MenuSections, type AreaNavSection } from '@dash/shell-sdk/ui';
import { TopBar } from './TopBar';

/**
 * A full page outside a project (account, organization, new project): the top bar, a menu of sections on
 * the left and the content. `crumbs` replaces the top bar's breadcrumb.
 */
export function SectionLayout({ title, sections, crumbs, children }: { title: string; sections: AreaNavSection[]; crumbs?: ReactNode; children: ReactNode }) {
  return (
    <div className="shell-frame">
      <TopBar>{crumbs ?? <span className="shell-topbar__crumb is-current">{title}</span>}</TopBar>
      <div className="shell-frame__body">
        <div className="dash-area">
          <MenuSections title={title} sections={sections} />
          <section className="dash-area__content">{children}</section>
        </div>
      </div>
    </div>
  );
}
