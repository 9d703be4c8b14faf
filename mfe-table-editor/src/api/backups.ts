import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { backupRoutes, gatewayPath, pitrRoutes, projectSettingsRoutes, type BackupRestore } from '@dash/contracts';

/** The project's database backups (hosted only), and the add-ons that decide which backups page opens. */
export const backupsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Backups', 'Project'] }).injectEndpoints({
  endpoints: (build) => ({
    databaseBackups: routeQuery(build, backupRoutes.listBackups, { providesTags: (_r, _e, { ref }) => [{ type: 'Backups', id: ref }] }),
    createBackup: routeMutation(build, backupRoutes.createBackup, { invalidatesTags: (_r, _e, { ref }) => [{ type: 'Backups', id: ref }] }),
    /** Answers with the new project, coming up; its provisioning restores the backup. */
    restoreBackup: routeMutation(build, backupRoutes.restoreBackup, {
      parts: ({ ref, id, body }: { ref: string; id: number; body: BackupRestore }) => ({ params: { ref, id }, body }),
      // The project list gains the new project.
      invalidatesTags: ['Project'],
    }),
    /** Point-in-time recovery: the add-on, whether the server can, and the recovery window. */
    pitrStatus: routeQuery(build, pitrRoutes.pitrStatus, { providesTags: (_r, _e, { ref }) => [{ type: 'Backups', id: ref }] }),
    /** Answers with the new project, coming up; its point-in-time backup is made and restored meanwhile (listed with the backups). */
    restorePitr: routeMutation(build, pitrRoutes.restorePitr, { invalidatesTags: (_r, _e, { ref }) => ['Project', { type: 'Backups', id: ref }] }),
    /** The same call as the add-ons settings page's: `selected_addons` says whether PITR is on. */
    backupAddons: routeQuery(build, projectSettingsRoutes.listAddons),
  }),
  overrideExisting: 'throw',
});

export const {
  useDatabaseBackupsQuery,
  useCreateBackupMutation,
  useRestoreBackupMutation,
  useBackupAddonsQuery,
  usePitrStatusQuery,
  useRestorePitrMutation,
} = backupsApi;

/** The file's URL: a plain link, so the browser downloads it with the session cookie and its own progress. */
export const backupDownloadUrl = (ref: string, id: number): string => gatewayPath(backupRoutes.downloadBackup, { ref, id });
