import { useEffect, useId } from 'react';
import { Field, Form } from 'react-final-form';
import { FORM_ERROR } from 'final-form';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { errorMessage, useToast } from '@dash/shell-sdk';
import { Button, EmptyState, FieldError, Spinner } from '@dash/shell-sdk/ui';
import {
  newProjectPasswordProblem,
  Permission,
  PROJECT_NAME_MAX,
  ProjectMessages,
  projectNameProblem,
  roleHasPermission,
  type Organization,
} from '@dash/contracts';
import { describeError } from '../api/errors';
import { useListOrganizationsQuery } from '../api/organizations';
import { useCreateProjectMutation } from '../api/project-lifecycle';
import { FullPageError } from '../errors/FullPageError';
import { TopBar } from '../layout/TopBar';
import { DatabasePasswordField, editedError } from './DatabasePasswordField';
import './projects.css';

interface Values {
  organization: string;
  name: string;
  password: string;
}

/**
 * `/new/:slug`: a project in one of the organizations the user may create projects in (owners and
 * administrators); `:slug` picks the organization first shown. After creating, the building page follows
 * the project while it comes up.
 */
export function NewProjectPage() {
  const { slug } = useParams();
  const organizations = useListOrganizationsQuery();
  const allowed = (organizations.data?.organizations ?? []).filter((o) => roleHasPermission(o.role, Permission.ProjectAdminWrite));

  useEffect(() => {
    document.title = 'New project | Dashboard';
  }, []);

  if (organizations.error) {
    const { code, message } = describeError(organizations.error);
    return <FullPageError code={code} message={message} />;
  }
  const chosen = allowed.find((o) => o.slug === slug);
  if (organizations.data && allowed.length > 0 && !chosen) return <Navigate to={`/new/${allowed[0]!.slug}`} replace />;

  return (
    <div className="shell-frame">
      <TopBar>
        <Link to="/projects" className="shell-topbar__crumb">
          Projects
        </Link>
        <span className="shell-topbar__sep" aria-hidden>
          /
        </span>
        <span className="shell-topbar__crumb is-current">New project</span>
      </TopBar>
      <main className="shell-page">
        <div className="shell-page__inner shell-new-project">
          {!organizations.data ? (
            <Spinner label="Loading organizations" />
          ) : !chosen ? (
            <EmptyState
              title="You need additional permissions"
              description="Only owners and administrators of an organization create its projects. Ask one of them to create it, or to make you an administrator."
              action={<Link to="/projects">Back to projects</Link>}
            />
          ) : (
            <NewProjectForm organizations={allowed} initial={chosen} />
          )}
        </div>
      </main>
    </div>
  );
}

function NewProjectForm({ organizations, initial }: { organizations: Organization[]; initial: Organization }) {
  const id = useId();
  const navigate = useNavigate();
  const toast = useToast();
  const [createProject] = useCreateProjectMutation();

  const onSubmit = async (values: Values) => {
    try {
      const project = await createProject({ name: values.name.trim(), organization_slug: values.organization, db_pass: values.password }).unwrap();
      toast('success', ProjectMessages.projectCreated(project.name));
      navigate(`/project/${project.ref}/building`);
      return undefined;
    } catch (error) {
      return { [FORM_ERROR]: ProjectMessages.createFailed(errorMessage(error)) };
    }
  };

  return (
    <Form<Values>
      initialValues={{ organization: initial.slug, name: '', password: '' }}
      validate={(values) => ({ name: projectNameProblem(values.name ?? ''), password: newProjectPasswordProblem(values.password ?? '') })}
      onSubmit={onSubmit}
      subscription={{ submitting: true, submitError: true }}
    >
      {({ handleSubmit, submitting, submitError }) => (
        <form className="dash-card shell-new-project__card" onSubmit={handleSubmit} noValidate aria-labelledby={`${id}-title`}>
          <header className="dash-card__header shell-new-project__header">
            <div>
              <h1 id={`${id}-title`}>Create a new project</h1>
              <p>Your project gets its own Postgres database, with roles, auth helpers and storage set up for it.</p>
            </div>
          </header>
          <div className="dash-card__body shell-new-project__body">
            <Field<string> name="organization">
              {({ input }) => (
                <div className="dash-field">
                  <label htmlFor={`${id}-organization`}>Organization</label>
                  <select
                    {...input}
                    id={`${id}-organization`}
                    className="dash-select"
                    disabled={submitting}
                    onChange={(event) => {
                      input.onChange(event);
                      navigate(`/new/${event.target.value}`, { replace: true });
                    }}
                  >
                    {organizations.map((o) => (
                      <option key={o.slug} value={o.slug}>
                        {o.name}
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </Field>
            <Field<string> name="name">
              {({ input, meta }) => {
                const error = editedError(meta);
                return (
                  <div className="dash-field">
                    <label htmlFor={`${id}-name`}>Project name</label>
                    <input
                      {...input}
                      id={`${id}-name`}
                      className="dash-input"
                      placeholder="My project"
                      maxLength={PROJECT_NAME_MAX}
                      autoFocus
                      autoComplete="off"
                      disabled={submitting}
                      aria-invalid={Boolean(error) || undefined}
                      aria-describedby={error ? `${id}-name-error` : undefined}
                    />
                    {error && <FieldError id={`${id}-name-error`} error={error} />}
                  </div>
                );
              }}
            </Field>
            <DatabasePasswordField id={id} label="Database password" disabled={Boolean(submitting)} />
            {submitError && (
              <p className="shell-new-project__error" role="alert">
                {submitError}
              </p>
            )}
          </div>
          <footer className="shell-new-project__footer">
            <Link to="/projects">Cancel</Link>
            <Button type="submit" variant="primary" loading={submitting}>
              Create new project
            </Button>
          </footer>
        </form>
      )}
    </Form>
  );
}
