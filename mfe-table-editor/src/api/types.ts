import { routeQuery, routeMutation, routeRequest } from '@dash/shell-sdk/routes';
import { databaseRoutes, type EnumTypeCreate, type EnumTypeUpdate, type PgType } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Types' as const, id: ref });

/** Types of the project; the enumerated types page shows the enums. Writes also refresh column types. */
export const databaseTypesApi = databaseApi.enhanceEndpoints({ addTagTypes: ['Columns'] }).injectEndpoints({
  endpoints: (build) => ({
    databaseTypes: routeQuery(build, databaseRoutes.listTypes, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    createDatabaseType: build.mutation<PgType, Ref & { body: EnumTypeCreate }>({
      query: ({ ref, body }) => routeRequest(databaseRoutes.createType, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref), 'Columns'],
    }),
    updateDatabaseType: build.mutation<PgType, Ref & { id: number; body: EnumTypeUpdate }>({
      query: ({ ref, id, body }) => routeRequest(databaseRoutes.updateType, { params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref), 'Columns'],
    }),
    deleteDatabaseType: routeMutation(build, databaseRoutes.deleteType, { invalidatesTags: (_r, _e, { ref }) => [tag(ref), 'Columns'] }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseTypesQuery, useCreateDatabaseTypeMutation, useUpdateDatabaseTypeMutation, useDeleteDatabaseTypeMutation } = databaseTypesApi;
