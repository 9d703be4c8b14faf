import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { databasePlatformRoutes } from '@dash/contracts';

/** The Supabase CLI's migration history (`supabase_migrations.schema_migrations`); the CLI writes it, never the dashboard. */
export const databaseMigrationsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseMigrations: routeQuery(build, databasePlatformRoutes.listMigrations),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseMigrationsQuery } = databaseMigrationsApi;
