import { routeQuery } from '@dash/shell-sdk/routes';
import { databasePlatformRoutes } from '@dash/contracts';
import { databaseApi } from './database';

/** Webhook triggers: refreshed with the triggers (a webhook is one) and the extensions (pg_net). */
export const databaseWebhooksApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseWebhooks: routeQuery(build, databasePlatformRoutes.listWebhooks, {
      providesTags: (_r, _e, { ref }) => [
        { type: 'Triggers', id: ref },
        { type: 'Extensions', id: ref },
      ],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseWebhooksQuery } = databaseWebhooksApi;
