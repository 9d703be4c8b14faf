import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { databaseRoutes, type FunctionInput } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Functions' as const, id: ref });

/** The database area's functions (all schemas but the system ones; the page filters by schema). */
export const databaseFunctionsApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseFunctions: routeQuery(build, databaseRoutes.listFunctions, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    createDatabaseFunction: routeMutation(build, databaseRoutes.createFunction, {
      parts: ({ ref, body }: Ref & { body: FunctionInput }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    updateDatabaseFunction: routeMutation(build, databaseRoutes.updateFunction, {
      parts: ({ ref, id, body }: Ref & { id: number; body: FunctionInput }) => ({ params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    deleteDatabaseFunction: routeMutation(build, databaseRoutes.deleteFunction, { invalidatesTags: (_r, _e, { ref }) => [tag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseFunctionsQuery, useCreateDatabaseFunctionMutation, useUpdateDatabaseFunctionMutation, useDeleteDatabaseFunctionMutation } = databaseFunctionsApi;
