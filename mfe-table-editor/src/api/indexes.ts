import { routeMutation, routeRequest } from '@dash/shell-sdk/routes';
import { databaseRoutes, type IndexCreate, type PgIndex } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Indexes' as const, id: ref });

export const databaseIndexesApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseIndexes: build.query<PgIndex[], Ref & { schema: string }>({
      query: ({ ref, schema }) => routeRequest(databaseRoutes.listIndexes, { params: { ref }, query: { included_schemas: schema } }),
      providesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    createDatabaseIndex: build.mutation<PgIndex, Ref & { body: IndexCreate }>({
      query: ({ ref, body }) => routeRequest(databaseRoutes.createIndex, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    deleteDatabaseIndex: routeMutation(build, databaseRoutes.deleteIndex, { invalidatesTags: (_r, _e, { ref }) => [tag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseIndexesQuery, useCreateDatabaseIndexMutation, useDeleteDatabaseIndexMutation } = databaseIndexesApi;
