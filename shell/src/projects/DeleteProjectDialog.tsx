import { useId } from 'react';
import { Field, Form } from 'react-final-form';
import { useNavigate } from 'react-router-dom';
import { errorMessage, FieldError, Modal, ModalActions, useToast } from '@dash/shell-sdk';
import { Messages, ProjectMessages, type Project } from '@dash/contracts';
import { useDeleteProjectMutation } from '../api/project-lifecycle';

/**
 * Deleting a project: the user types its ref (shown, and unique, unlike its name) to confirm; then the
 * platform deletes it with its database and the user lands on the projects page.
 */
export function DeleteProjectDialog({ project, onClose }: { project: Pick<Project, 'ref' | 'name'>; onClose: () => void }) {
  const id = useId();
  const navigate = useNavigate();
  const toast = useToast();
  const [deleteProject, { isLoading: busy }] = useDeleteProjectMutation();

  const onSubmit = async () => {
    try {
      await deleteProject({ ref: project.ref }).unwrap();
    } catch (error) {
      toast('error', ProjectMessages.deleteFailed(errorMessage(error)));
      return;
    }
    toast('success', ProjectMessages.projectDeletedToast(project.name));
    onClose();
    navigate('/projects', { replace: true });
  };

  return (
    <Modal
      title={ProjectMessages.confirmDeleteTitle(project.name)}
      onClose={() => !busy && onClose()}
      width={500}
      footer={
        <ModalActions onCancel={onClose} busy={busy} variant="danger" type="submit" form={id}>
          {busy ? 'Deleting project' : 'Delete project'}
        </ModalActions>
      }
    >
      <div className="shell-callout shell-callout--danger">
        <p className="shell-callout__title">{ProjectMessages.cannotRecoverProject}</p>
        <p className="shell-callout__text">{ProjectMessages.projectDataLost}</p>
      </div>
      <Form<{ confirmation: string }>
        initialValues={{ confirmation: '' }}
        validate={(values) => (values.confirmation === project.ref ? {} : { confirmation: Messages.valueDoesNotMatch })}
        onSubmit={onSubmit}
        subscription={{}}
      >
        {({ handleSubmit }) => (
          <form id={id} onSubmit={handleSubmit} noValidate>
            <Field<string> name="confirmation" parse={(value: string) => value ?? ''}>
              {({ input, meta }) => {
                const error = meta.submitFailed && typeof meta.error === 'string' ? meta.error : undefined;
                return (
                  <div className="dash-field">
                    <label htmlFor={`${id}-input`}>
                      Type <strong className="shell-confirm-value">{project.ref}</strong> to confirm.
                    </label>
                    <input
                      {...input}
                      id={`${id}-input`}
                      className="dash-input"
                      placeholder={project.ref}
                      autoFocus
                      autoComplete="off"
                      spellCheck={false}
                      disabled={busy}
                      aria-invalid={Boolean(error) || undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                    />
                    {error && <FieldError id={`${id}-error`} error={error} />}
                  </div>
                );
              }}
            </Field>
          </form>
        )}
      </Form>
    </Modal>
  );
}
