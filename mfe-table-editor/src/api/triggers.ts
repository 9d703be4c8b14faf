import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { databaseRoutes, type TriggerCreate, type TriggerUpdate } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Triggers' as const, id: ref });

export const databaseTriggersApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseTriggers: routeQuery(build, databaseRoutes.listTriggers, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    createDatabaseTrigger: routeMutation(build, databaseRoutes.createTrigger, {
      parts: ({ ref, body }: Ref & { body: TriggerCreate }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    updateDatabaseTrigger: routeMutation(build, databaseRoutes.updateTrigger, {
      parts: ({ ref, id, body }: Ref & { id: number; body: TriggerUpdate }) => ({ params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    deleteDatabaseTrigger: routeMutation(build, databaseRoutes.deleteTrigger, { invalidatesTags: (_r, _e, { ref }) => [tag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseTriggersQuery, useCreateDatabaseTriggerMutation, useUpdateDatabaseTriggerMutation, useDeleteDatabaseTriggerMutation } = databaseTriggersApi;
