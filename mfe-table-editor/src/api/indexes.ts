import { routeRequest } from '@dash/shell-sdk';
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
    deleteDatabaseIndex: build.mutation<PgIndex, Ref & { id: number }>({
      query: ({ ref, id }) => routeRequest(databaseRoutes.deleteIndex, { params: { ref, id } }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
  }),
});

export const { useDatabaseIndexesQuery, useCreateDatabaseIndexMutation, useDeleteDatabaseIndexMutation } = databaseIndexesApi;
