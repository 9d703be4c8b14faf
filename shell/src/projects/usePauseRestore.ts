import { errorMessage, useConfirm, useToast } from '@dash/shell-sdk';
import { ProjectMessages, type Project } from '@dash/contracts';
import { usePauseProjectMutation, useRestoreProjectMutation } from '../api/project-lifecycle';

/** Pausing (after a confirmation) and restoring a project, with their toasts: the settings page and the paused banner share them. */
export function usePauseRestore(project: Pick<Project, 'ref' | 'name'>) {
  const confirm = useConfirm();
  const toast = useToast();
  const [pauseProject, pausing] = usePauseProjectMutation();
  const [restoreProject, restoring] = useRestoreProjectMutation();

  const pause = async () => {
    const confirmed = await confirm({
      title: ProjectMessages.confirmPauseTitle(project.name),
      message: ProjectMessages.pauseExplanation,
      confirmLabel: 'Pause project',
      variant: 'danger',
    });
    if (!confirmed) return;
    const result = await pauseProject({ ref: project.ref });
    if ('error' in result) toast('error', ProjectMessages.pauseFailed(errorMessage(result.error)));
    else toast('success', ProjectMessages.projectPausedToast(project.name));
  };

  const restore = async () => {
    const result = await restoreProject({ ref: project.ref });
    if ('error' in result) toast('error', ProjectMessages.restoreFailed(errorMessage(result.error)));
    else toast('success', ProjectMessages.projectRestoredToast(project.name));
  };

  return { pause, restore, pausing: pausing.isLoading, restoring: restoring.isLoading };
}
