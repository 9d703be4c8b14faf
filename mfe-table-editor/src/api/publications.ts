import { routeRequest } from '@dash/shell-sdk';
import { databaseRoutes, type PgPublication, type PublicationCreate, type PublicationUpdate } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Publications' as const, id: ref });

export const databasePublicationsApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databasePublications: build.query<PgPublication[], Ref>({
      query: ({ ref }) => routeRequest(databaseRoutes.listPublications, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    createDatabasePublication: build.mutation<PgPublication, Ref & { body: PublicationCreate }>({
      query: ({ ref, body }) => routeRequest(databaseRoutes.createPublication, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    updateDatabasePublication: build.mutation<PgPublication, Ref & { id: number; body: PublicationUpdate }>({
      query: ({ ref, id, body }) => routeRequest(databaseRoutes.updatePublication, { params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    deleteDatabasePublication: build.mutation<PgPublication, Ref & { id: number }>({
      query: ({ ref, id }) => routeRequest(databaseRoutes.deletePublication, { params: { ref, id } }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
  }),
});

export const {
  useDatabasePublicationsQuery,
  useCreateDatabasePublicationMutation,
  useUpdateDatabasePublicationMutation,
  useDeleteDatabasePublicationMutation,
} = databasePublicationsApi;
