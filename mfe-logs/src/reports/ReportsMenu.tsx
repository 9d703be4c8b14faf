import { useState } from 'react';
import { NavLink } from 'react-router-dom';
import { usePermission, useProjectRef } from '@dash/shell-sdk';
import { Spinner } from '@dash/shell-sdk/ui';
import { Permission } from '@dash/contracts';
import { useListReportsQuery } from '../api/reports';
import { CreateReportDialog } from './CreateReportDialog';
import { customReportPath } from './paths';

export const NO_CREATE_PERMISSION = 'You need additional permissions to create reports';

const linkClass = ({ isActive }: { isActive: boolean }) => `dash-area__link${isActive ? ' is-active' : ''}`;

/** The reports menu's "Custom reports" section (the area's `menuExtra`): the project's reports and "New custom report". */
export function ReportsMenu() {
  const ref = useProjectRef();
  const { data, isLoading, isError } = useListReportsQuery({ ref });
  const { can } = usePermission(Permission.UserContentSqlCreate);
  const [creating, setCreating] = useState(false);
  return (
    <nav className="dash-area__section reports-menu" aria-label="Custom reports">
      <h3 className="dash-area__section-title">Custom reports</h3>
      {isLoading && <Spinner label="Loading reports" />}
      {isError && <p className="reports-menu__note">Failed to load reports</p>}
      {data?.length === 0 && <p className="reports-menu__note">No custom reports yet</p>}
      {data?.map((report) => (
        <NavLink key={report.id} to={customReportPath(ref, report.id)} className={linkClass}>
          <span className="reports-menu__name">{report.name}</span>
        </NavLink>
      ))}
      <button
        type="button"
        className="reports-menu__new"
        disabled={!can}
        title={can ? undefined : NO_CREATE_PERMISSION}
        onClick={() => setCreating(true)}
      >
        + New custom report
      </button>
      {creating && <CreateReportDialog onClose={() => setCreating(false)} />}
    </nav>
  );
}
