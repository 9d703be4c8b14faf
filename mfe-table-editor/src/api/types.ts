import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { databaseRoutes, type EnumTypeCreate, type EnumTypeUpdate } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Types' as const, id: ref });

/** Types of the project; the enumerated types page shows the enums. Writes also refresh column types. */
export const databaseTypesApi = databaseApi.enhanceEndpoints({ addTagTypes: ['Columns'] }).injectEndpoints({
  endpoints: (build) => ({
    databaseTypes: routeQuery(build, databaseRoutes.listTypes, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    createDatabaseType: routeMutation(build, databaseRoutes.createType, {
      parts: ({ ref, body }: Ref & { body: EnumTypeCreate }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref), 'Columns'],
    }),
    updateDatabaseType: routeMutation(build, databaseRoutes.updateType, {
      parts: ({ ref, id, body }: Ref & { id: number; body: EnumTypeUpdate }) => ({ params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref), 'Columns'],
    }),
    deleteDatabaseType: routeMutation(build, databaseRoutes.deleteType, { invalidatesTags: (_r, _e, { ref }) => [tag(ref), 'Columns'] }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseTypesQuery, useCreateDatabaseTypeMutation, useUpdateDatabaseTypeMutation, useDeleteDatabaseTypeMutation } = databaseTypesApi;
