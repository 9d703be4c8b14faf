import { baseApi } from '@dash/shell-sdk';
import { routeRequest } from '@dash/shell-sdk/routes';
import { ENTITY_PAGE_SIZE, pgMetaRoutes, type EntitySort, type RouteReply } from '@dash/contracts';

export type EntitiesPage = RouteReply<typeof pgMetaRoutes.listEntities>;

export interface EntitiesArg {
  ref: string;
  schema: string;
  /** Already trimmed; undefined lists everything. */
  search?: string;
  sort: EntitySort;
}

/**
 * The entity list of one schema, one page of ENTITY_PAGE_SIZE at a time. The page param is the offset;
 * the next page is requested while the service says `hasMore`.
 */
export const editorEntitiesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Entities'] }).injectEndpoints({
  endpoints: (build) => ({
    editorEntities: build.infiniteQuery<EntitiesPage, EntitiesArg, number>({
      infiniteQueryOptions: {
        initialPageParam: 0,
        getNextPageParam: (lastPage, _pages, lastOffset) => (lastPage.hasMore ? lastOffset + ENTITY_PAGE_SIZE : undefined),
      },
      query: ({ queryArg: { ref, ...query }, pageParam }) =>
        routeRequest(pgMetaRoutes.listEntities, { params: { ref }, query: { ...query, limit: ENTITY_PAGE_SIZE, offset: pageParam } }),
      providesTags: (_r, _e, { ref, schema }) => [{ type: 'Entities', id: `${ref}:${schema}` }],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useEditorEntitiesInfiniteQuery } = editorEntitiesApi;
