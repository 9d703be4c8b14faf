import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import { Navigate } from 'react-router-dom';
import { errorMessage, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, ErrorPanel, Spinner } from '@dash/shell-sdk/ui';
import { BUILDING_POLL_MS, Permission, PROVISIONING_STEP_LABELS, PROVISIONING_STEPS, ProjectMessages, type ProjectLifecycle } from '@dash/contracts';
import { projectLifecycleApi, useProjectLifecycleQuery, useRetryProvisioningMutation } from '../api/project-lifecycle';
import './projects.css';

/**
 * `/project/:ref/building`: the steps of a project coming up, asked again every BUILDING_POLL_MS. Once it
 * is up, every cached view of the project is refreshed and the user moves on to the project.
 */
export function BuildingPage() {
  const ref = useProjectRef();
  const dispatch = useDispatch();
  const lifecycle = useProjectLifecycleQuery({ ref }, { pollingInterval: BUILDING_POLL_MS, skipPollingIfUnfocused: false });
  const done = lifecycle.data !== undefined && lifecycle.data.status !== 'COMING_UP';

  useEffect(() => {
    // The layout's project (and the projects list) still say COMING_UP.
    if (done) dispatch(projectLifecycleApi.util.invalidateTags([{ type: 'Project', id: ref }, { type: 'Project', id: 'LIST' }]));
  }, [done, ref, dispatch]);

  if (done) return <Navigate to={`/project/${ref}`} replace />;
  if (!lifecycle.data) {
    if (lifecycle.error) {
      return <ErrorPanel title="Failed to load the project's progress" message={errorMessage(lifecycle.error)} onRetry={() => void lifecycle.refetch()} />;
    }
    return <Spinner label="Loading project" />;
  }
  return <Progress lifecycle={lifecycle.data} />;
}

const STATE_LABELS = { done: 'Done', current: 'In progress', failed: 'Failed', pending: '' } as const;

function Progress({ lifecycle }: { lifecycle: ProjectLifecycle }) {
  const current = PROVISIONING_STEPS.indexOf(lifecycle.provisioning.step);
  const failed = lifecycle.provisioning.error !== null;
  return (
    <section className="shell-building" aria-labelledby="shell-building-title">
      <h1 id="shell-building-title">Setting up {lifecycle.name}</h1>
      <p className="shell-building__intro">
        {ProjectMessages.comingUpBanner}: its database is being created. This page moves on to the project when it is ready.
      </p>
      <ol className="shell-building__steps" aria-label="Progress">
        {PROVISIONING_STEPS.map((step, index) => {
          const state = index < current ? 'done' : index === current ? (failed ? 'failed' : 'current') : 'pending';
          return (
            <li key={step} className={`shell-building__step is-${state}`} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="shell-building__marker" aria-hidden>
                {state === 'done' ? '✓' : state === 'failed' ? '!' : state === 'current' ? <span className="dash-spinner dash-spinner--inline" /> : ''}
              </span>
              <span>{PROVISIONING_STEP_LABELS[step]}</span>
              <span className="shell-building__state">{STATE_LABELS[state]}</span>
            </li>
          );
        })}
      </ol>
      {failed && <ProvisioningFailure projectRef={lifecycle.ref} message={lifecycle.provisioning.error!} attempts={lifecycle.provisioning.attempts} />}
    </section>
  );
}

function ProvisioningFailure({ projectRef, message, attempts }: { projectRef: string; message: string; attempts: number }) {
  const { can } = usePermission(Permission.ProjectAdminWrite);
  const [retry, { isLoading }] = useRetryProvisioningMutation();
  const toast = useToast();
  const onRetry = async () => {
    const result = await retry({ ref: projectRef });
    if ('error' in result) toast('error', ProjectMessages.retryFailed(errorMessage(result.error)));
  };
  return (
    <div className="shell-building__failure" role="alert">
      <p className="shell-building__failure-title">{ProjectMessages.provisioningFailed(message)}</p>
      <p className="shell-building__failure-text">
        Attempt {attempts}. The platform tries again on its own; an owner or administrator can also try again now.
      </p>
      <Button onClick={() => void onRetry()} loading={isLoading} disabledReason={can ? undefined : ProjectMessages.cannotManage}>
        Try again now
      </Button>
    </div>
  );
}
