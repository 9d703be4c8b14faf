import { useNavigate } from 'react-router-dom';
import { errorMessage, useToast } from '@dash/shell-sdk';
import { ConfirmByTypingDialog } from '@dash/shell-sdk/ui';
import { ProjectMessages, type Project } from '@dash/contracts';
import { useDeleteProjectMutation } from '../api/project-lifecycle';

/**
 * Deleting a project: the user types its ref (shown, and unique, unlike its name) to confirm; then the
 * platform deletes it with its database (the request names the project too, as the platform requires)
 * and the user lands on the projects page.
 */
export function DeleteProjectDialog({ project, onClose }: { project: Pick<Project, 'ref' | 'name'>; onClose: () => void }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [deleteProject, { isLoading: busy }] = useDeleteProjectMutation();

  const onConfirm = async () => {
    try {
      await deleteProject({ ref: project.ref, name: project.name }).unwrap();
    } catch (error) {
      toast('error', ProjectMessages.deleteFailed(errorMessage(error)));
      return;
    }
    toast('success', ProjectMessages.projectDeletedToast(project.name));
    onClose();
    navigate('/projects', { replace: true });
  };

  return (
    <ConfirmByTypingDialog
      title={ProjectMessages.confirmDeleteTitle(project.name)}
      expected={project.ref}
      warning={ProjectMessages.cannotRecoverProject}
      detail={ProjectMessages.projectDataLost}
      action="Delete project"
      busyAction="Deleting project"
      busy={busy}
      onConfirm={() => void onConfirm()}
      onClose={onClose}
    />
  );
}
