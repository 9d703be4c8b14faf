import { routeQuery, routeMutation, routeRequest } from '@dash/shell-sdk/routes';
import { databaseRoutes, type PgPublication, type PublicationCreate, type PublicationUpdate } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Publications' as const, id: ref });

export const databasePublicationsApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databasePublications: routeQuery(build, databaseRoutes.listPublications, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    createDatabasePublication: build.mutation<PgPublication, Ref & { body: PublicationCreate }>({
      query: ({ ref, body }) => routeRequest(databaseRoutes.createPublication, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    updateDatabasePublication: build.mutation<PgPublication, Ref & { id: number; body: PublicationUpdate }>({
      query: ({ ref, id, body }) => routeRequest(databaseRoutes.updatePublication, { params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    deleteDatabasePublication: routeMutation(build, databaseRoutes.deletePublication, { invalidatesTags: (_r, _e, { ref }) => [tag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const {
  useDatabasePublicationsQuery,
  useCreateDatabasePublicationMutation,
  useUpdateDatabasePublicationMutation,
  useDeleteDatabasePublicationMutation,
} = databasePublicationsApi;
