import { routeQuery, routeMutation, routeRequest } from '@dash/shell-sdk/routes';
import { databaseRoutes, type PgTrigger, type TriggerCreate, type TriggerUpdate } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Triggers' as const, id: ref });

export const databaseTriggersApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseTriggers: routeQuery(build, databaseRoutes.listTriggers, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    createDatabaseTrigger: build.mutation<PgTrigger, Ref & { body: TriggerCreate }>({
      query: ({ ref, body }) => routeRequest(databaseRoutes.createTrigger, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    updateDatabaseTrigger: build.mutation<PgTrigger, Ref & { id: number; body: TriggerUpdate }>({
      query: ({ ref, id, body }) => routeRequest(databaseRoutes.updateTrigger, { params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    deleteDatabaseTrigger: routeMutation(build, databaseRoutes.deleteTrigger, { invalidatesTags: (_r, _e, { ref }) => [tag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseTriggersQuery, useCreateDatabaseTriggerMutation, useUpdateDatabaseTriggerMutation, useDeleteDatabaseTriggerMutation } = databaseTriggersApi;
