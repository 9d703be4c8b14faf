import { routeRequest } from '@dash/shell-sdk';
import { databasePlatformRoutes, type DatabaseWebhook } from '@dash/contracts';
import { databaseApi } from './database';

/** Webhook triggers: refreshed with the triggers (a webhook is one) and the extensions (pg_net). */
export const databaseWebhooksApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseWebhooks: build.query<DatabaseWebhook[], { ref: string }>({
      query: ({ ref }) => routeRequest(databasePlatformRoutes.listWebhooks, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [
        { type: 'Triggers', id: ref },
        { type: 'Extensions', id: ref },
      ],
    }),
  }),
});

export const { useDatabaseWebhooksQuery } = databaseWebhooksApi;
