import { routeQuery, routeMutation, routeRequest } from '@dash/shell-sdk/routes';
import { databaseRoutes, type FunctionInput, type PgFunction } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Functions' as const, id: ref });

/** The database area's functions (all schemas but the system ones; the page filters by schema). */
export const databaseFunctionsApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseFunctions: routeQuery(build, databaseRoutes.listFunctions, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    createDatabaseFunction: build.mutation<PgFunction, Ref & { body: FunctionInput }>({
      query: ({ ref, body }) => routeRequest(databaseRoutes.createFunction, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    updateDatabaseFunction: build.mutation<PgFunction, Ref & { id: number; body: FunctionInput }>({
      query: ({ ref, id, body }) => routeRequest(databaseRoutes.updateFunction, { params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    deleteDatabaseFunction: routeMutation(build, databaseRoutes.deleteFunction, { invalidatesTags: (_r, _e, { ref }) => [tag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseFunctionsQuery, useCreateDatabaseFunctionMutation, useUpdateDatabaseFunctionMutation, useDeleteDatabaseFunctionMutation } = databaseFunctionsApi;
