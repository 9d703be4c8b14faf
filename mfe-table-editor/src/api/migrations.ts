import { baseApi } from '@dash/shell-sdk';
import { routeRequest } from '@dash/shell-sdk/routes';
import { databasePlatformRoutes, type SchemaMigrations } from '@dash/contracts';

/** The Supabase CLI's migration history (`supabase_migrations.schema_migrations`); the CLI writes it, never the dashboard. */
export const databaseMigrationsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseMigrations: build.query<SchemaMigrations, { ref: string }>({
      query: ({ ref }) => routeRequest(databasePlatformRoutes.listMigrations, { params: { ref } }),
    }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseMigrationsQuery } = databaseMigrationsApi;
