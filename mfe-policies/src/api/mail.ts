import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { mailRoutes } from '@dash/contracts';

/** The project's caught auth mail (the mail service's inbox). */
const tag = (ref: string) => ({ type: 'Project' as const, id: `mail:${ref}` });

export const mailApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    projectEmails: routeQuery(build, mailRoutes.listMail, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    projectEmail: routeQuery(build, mailRoutes.getMail, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    deleteAllEmails: routeMutation(build, mailRoutes.deleteAllMail, { invalidatesTags: (_r, _e, { ref }) => [tag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const { useProjectEmailsQuery, useProjectEmailQuery, useDeleteAllEmailsMutation } = mailApi;
