import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { projectSettingsRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };
type Addons = RouteReply<typeof projectSettingsRoutes.listAddons>;

/** The project's add-ons: what is selected and what can be (`selected_addons`, `available_addons`). */
export const addonsApi = baseApi.injectEndpoints({
  endpoints: (build) => {
    // Both changes answer with the add-ons as they now are: put them in the cache.
    const storeReply = async (ref: string, queryFulfilled: Promise<{ data: Addons }>, dispatch: (action: unknown) => unknown) => {
      try {
        const { data } = await queryFulfilled;
        dispatch(addonsApi.util.upsertQueryData('projectAddons', { ref }, data));
      } catch {
        // The caller shows the failure.
      }
    };
    return {
      projectAddons: routeQuery(build, projectSettingsRoutes.listAddons),
      selectAddon: routeMutation(build, projectSettingsRoutes.selectAddon, {
        parts: ({ ref, body }: Ref & { body: RouteBody<typeof projectSettingsRoutes.selectAddon> }) => ({ params: { ref }, body }),
        onQueryStarted: ({ ref }, { dispatch, queryFulfilled }) => storeReply(ref, queryFulfilled, dispatch),
      }),
      removeAddon: routeMutation(build, projectSettingsRoutes.removeAddon, {
        onQueryStarted: ({ ref }, { dispatch, queryFulfilled }) => storeReply(ref, queryFulfilled, dispatch),
      }),
    };
  },
  overrideExisting: 'throw',
});

export const { useProjectAddonsQuery, useSelectAddonMutation, useRemoveAddonMutation } = addonsApi;
