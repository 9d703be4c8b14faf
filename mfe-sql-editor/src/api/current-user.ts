import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { platformRoutes } from '@dash/contracts';

/**
 * Who is signed in: a snippet's `owner_id` is compared with it to tell the member's own snippets from
 * other members' project snippets. Named apart from the shell's `session` endpoint (same route).
 */
export const currentUserApi = baseApi.enhanceEndpoints({ addTagTypes: ['Session'] }).injectEndpoints({
  endpoints: (build) => ({
    sqlEditorCurrentUser: routeQuery(build, platformRoutes.session, { transformResponse: (reply) => reply.user, providesTags: ['Session'] }),
  }),
  overrideExisting: 'throw',
});

export const { useSqlEditorCurrentUserQuery } = currentUserApi;
