import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { databaseRoutes, type IndexCreate } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Indexes' as const, id: ref });

export const databaseIndexesApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseIndexes: routeQuery(build, databaseRoutes.listIndexes, {
      parts: ({ ref, schema }: Ref & { schema: string }) => ({ params: { ref }, query: { included_schemas: schema } }),
      providesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    createDatabaseIndex: routeMutation(build, databaseRoutes.createIndex, {
      parts: ({ ref, body }: Ref & { body: IndexCreate }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    deleteDatabaseIndex: routeMutation(build, databaseRoutes.deleteIndex, { invalidatesTags: (_r, _e, { ref }) => [tag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseIndexesQuery, useCreateDatabaseIndexMutation, useDeleteDatabaseIndexMutation } = databaseIndexesApi;
