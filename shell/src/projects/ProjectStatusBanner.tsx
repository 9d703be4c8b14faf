import { Link, useLocation } from 'react-router-dom';
import { usePermission } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { Permission, ProjectMessages, type Project } from '@dash/contracts';
import { usePauseRestore } from './usePauseRestore';
import './projects.css';

/**
 * The bar over a project's pages while it is not active: paused (with Restore, for owners and
 * administrators) or coming up (with a link to its progress). Nothing for an active project.
 */
export function ProjectStatusBanner({ project }: { project: Pick<Project, 'ref' | 'name' | 'status'> }) {
  if (project.status === 'INACTIVE') return <PausedBanner project={project} />;
  if (project.status === 'COMING_UP') return <ComingUpBanner projectRef={project.ref} />;
  return null;
}

function ComingUpBanner({ projectRef }: { projectRef: string }) {
  const building = `/project/${projectRef}/building`;
  const onBuildingPage = useLocation().pathname === building;
  return (
    <div className="shell-status-banner shell-status-banner--coming-up" role="status">
      <span className="dash-spinner dash-spinner--inline" aria-hidden />
      <p className="shell-status-banner__text">
        <strong>{ProjectMessages.comingUpBanner}.</strong> Its APIs answer once it is ready.
      </p>
      {!onBuildingPage && <Link to={building}>View progress</Link>}
    </div>
  );
}

function PausedBanner({ project }: { project: Pick<Project, 'ref' | 'name'> }) {
  const { can } = usePermission(Permission.ProjectAdminWrite);
  const { restore, restoring } = usePauseRestore(project);
  return (
    <div className="shell-status-banner shell-status-banner--paused" role="status">
      <p className="shell-status-banner__text">
        <strong>{ProjectMessages.pausedBanner}.</strong> {ProjectMessages.pausedBannerText}
      </p>
      <Button size="sm" variant="primary" onClick={() => void restore()} loading={restoring} disabledReason={can ? undefined : ProjectMessages.cannotManage}>
        Restore project
      </Button>
    </div>
  );
}
