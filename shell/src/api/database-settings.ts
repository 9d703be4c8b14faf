import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { projectSettingsRoutes, type RouteBody } from '@dash/contracts';

type Ref = { ref: string };
const tag = (ref: string) => [{ type: 'Project' as const, id: `${ref}:database-settings` }];

/** How to connect to the project database, and the reset of its admin role's password. */
export const databaseSettingsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    databaseSettings: routeQuery(build, projectSettingsRoutes.databaseSettings, { providesTags: (_r, _e, { ref }) => tag(ref) }),
    resetDatabasePassword: routeMutation(build, projectSettingsRoutes.resetDatabasePassword, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof projectSettingsRoutes.resetDatabasePassword> }) => ({ params: { ref }, body }),
      // The reply is the settings after the reset (its time): no second request.
      async onQueryStarted({ ref }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(databaseSettingsApi.util.upsertQueryData('databaseSettings', { ref }, data));
        } catch {
          // The caller shows the failure.
        }
      },
    }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseSettingsQuery, useResetDatabasePasswordMutation } = databaseSettingsApi;
