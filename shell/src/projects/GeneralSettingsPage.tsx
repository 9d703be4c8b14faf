import { useId, useState } from 'react';
import { Field, Form } from 'react-final-form';
import { Link } from 'react-router-dom';
import { errorMessage, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, ErrorPanel, FieldError, PageHeader, shownError, Spinner } from '@dash/shell-sdk/ui';
import { Permission, PROJECT_NAME_MAX, ProjectMessages, projectNameProblem, type Project, type ProjectLifecycle } from '@dash/contracts';
import { useGetProjectQuery } from '../api/projects';
import { useProjectLifecycleQuery, useRenameProjectMutation } from '../api/project-lifecycle';
import { DeleteProjectDialog } from './DeleteProjectDialog';
import { ProjectStatusBadge } from './ProjectStatusBadge';
import { usePauseRestore } from './usePauseRestore';
import './projects.css';

/**
 * Project settings, General: the name (owners and administrators change it), the ref and the status;
 * pausing or restoring the project; deleting it.
 */
export function GeneralSettingsPage() {
  const ref = useProjectRef();
  const project = useGetProjectQuery({ ref });
  const lifecycle = useProjectLifecycleQuery({ ref });
  const { can } = usePermission(Permission.ProjectAdminWrite);

  const error = project.error ?? lifecycle.error;
  if (error) {
    return (
      <ErrorPanel
        title="Failed to load the project's settings"
        message={errorMessage(error)}
        onRetry={() => {
          void project.refetch();
          void lifecycle.refetch();
        }}
      />
    );
  }
  if (!project.data || !lifecycle.data) return <Spinner label="Loading settings" />;
  const reason = can ? undefined : ProjectMessages.cannotManage;
  return (
    <div className="shell-settings">
      <PageHeader title="General" description="The project's name, ref and status." />
      <DetailsCard project={project.data} disabledReason={reason} />
      <AvailabilityCard project={project.data} lifecycle={lifecycle.data} disabledReason={reason} />
      <DeleteCard project={project.data} disabledReason={reason} />
    </div>
  );
}

function DetailsCard({ project, disabledReason }: { project: Project; disabledReason?: string }) {
  const id = useId();
  const toast = useToast();
  const [renameProject] = useRenameProjectMutation();
  const onSubmit = async ({ name }: { name: string }) => {
    const result = await renameProject({ ref: project.ref, name: name.trim() });
    if ('error' in result) toast('error', ProjectMessages.renameFailed(errorMessage(result.error)));
    else toast('success', ProjectMessages.projectRenamedToast);
  };
  return (
    <Form<{ name: string }>
      initialValues={{ name: project.name }}
      validate={(values) => ({ name: projectNameProblem(values.name ?? '') })}
      onSubmit={onSubmit}
      subscription={{ submitting: true, pristine: true }}
    >
      {({ handleSubmit, submitting, pristine, form }) => (
        <form className="dash-card shell-settings__card" onSubmit={handleSubmit} noValidate aria-label="Project details">
          <header className="dash-card__header">
            <h2>Project details</h2>
          </header>
          <div className="dash-card__body">
            <Field<string> name="name">
              {({ input, meta }) => {
                const error = shownError(meta);
                return (
                  <div className="shell-settings__row">
                    <label htmlFor={`${id}-name`}>Project name</label>
                    <div className="shell-settings__value">
                      <input
                        {...input}
                        id={`${id}-name`}
                        className="dash-input"
                        maxLength={PROJECT_NAME_MAX}
                        disabled={submitting || Boolean(disabledReason)}
                        aria-invalid={Boolean(error) || undefined}
                        aria-describedby={error ? `${id}-name-error` : undefined}
                      />
                      {error && <FieldError id={`${id}-name-error`} error={error} />}
                    </div>
                  </div>
                );
              }}
            </Field>
            <div className="shell-settings__row">
              <label htmlFor={`${id}-ref`}>Project ref</label>
              <div className="shell-settings__value">
                <input id={`${id}-ref`} className="dash-input shell-settings__mono" value={project.ref} readOnly />
                <span className="dash-field__hint">Names the project in URLs and in its API's address; it never changes.</span>
              </div>
            </div>
            <div className="shell-settings__row">
              <span className="shell-settings__label">Status</span>
              <div className="shell-settings__value">
                <ProjectStatusBadge status={project.status} />
              </div>
            </div>
          </div>
          <footer className="shell-settings__footer">
            <Button onClick={() => form.reset()} disabled={pristine || submitting}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" loading={submitting} disabled={pristine} disabledReason={disabledReason}>
              Save
            </Button>
          </footer>
        </form>
      )}
    </Form>
  );
}

function AvailabilityCard({ project, lifecycle, disabledReason }: { project: Project; lifecycle: ProjectLifecycle; disabledReason?: string }) {
  const { pause, restore, pausing, restoring } = usePauseRestore(project);
  return (
    <section className="dash-card shell-settings__card" aria-labelledby="shell-settings-availability">
      <header className="dash-card__header">
        <h2 id="shell-settings-availability">Project availability</h2>
      </header>
      <div className="dash-card__body shell-settings__action">
        {project.status === 'ACTIVE_HEALTHY' && (
          <>
            <div>
              <p className="shell-settings__action-title">Pause project</p>
              <p className="shell-settings__action-text">{ProjectMessages.pauseExplanation}</p>
            </div>
            <Button onClick={() => void pause()} loading={pausing} disabledReason={disabledReason}>
              Pause project
            </Button>
          </>
        )}
        {project.status === 'INACTIVE' && (
          <>
            <div>
              <p className="shell-settings__action-title">Restore project</p>
              <p className="shell-settings__action-text">
                Paused{lifecycle.paused_at ? ` since ${new Date(lifecycle.paused_at).toLocaleString()}` : ''}. {ProjectMessages.pausedBannerText}
              </p>
            </div>
            <Button variant="primary" onClick={() => void restore()} loading={restoring} disabledReason={disabledReason}>
              Restore project
            </Button>
          </>
        )}
        {project.status === 'COMING_UP' && (
          <>
            <div>
              <p className="shell-settings__action-title">{ProjectMessages.comingUpBanner}</p>
              <p className="shell-settings__action-text">It can be paused once it is ready.</p>
            </div>
            <Link to={`/project/${project.ref}/building`}>View progress</Link>
          </>
        )}
      </div>
    </section>
  );
}

function DeleteCard({ project, disabledReason }: { project: Project; disabledReason?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="dash-card shell-settings__card shell-settings__card--danger" aria-labelledby="shell-settings-delete">
      <header className="dash-card__header">
        <h2 id="shell-settings-delete">Delete project</h2>
      </header>
      <div className="dash-card__body shell-settings__action">
        <div>
          <p className="shell-settings__action-title">{ProjectMessages.cannotRecoverProject}</p>
          <p className="shell-settings__action-text">{ProjectMessages.projectDataLost}</p>
        </div>
        <Button variant="danger" onClick={() => setOpen(true)} disabledReason={disabledReason}>
          Delete project
        </Button>
      </div>
      {open && <DeleteProjectDialog project={project} onClose={() => setOpen(false)} />}
    </section>
  );
}
