import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { databaseRoutes, type PublicationCreate, type PublicationUpdate } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Publications' as const, id: ref });

export const databasePublicationsApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databasePublications: routeQuery(build, databaseRoutes.listPublications, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    createDatabasePublication: routeMutation(build, databaseRoutes.createPublication, {
      parts: ({ ref, body }: Ref & { body: PublicationCreate }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    updateDatabasePublication: routeMutation(build, databaseRoutes.updatePublication, {
      parts: ({ ref, id, body }: Ref & { id: number; body: PublicationUpdate }) => ({ params: { ref, id }, body }),
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
