import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';

/** How long a token minted for a project's user stays valid: one hour, as a user's access token does. */
export const DATA_API_USER_TOKEN_TTL_SECONDS = 3600;

export const DataApiUserTokenRequest = Type.Object({
  /** The id of one of the project's auth users: the token's `sub`, so `auth.uid()` is this user. */
  userId: Type.String({ format: 'uuid' }),
});
export type DataApiUserTokenRequest = Static<typeof DataApiUserTokenRequest>;

export const DataApiUserToken = Type.Object({
  /** An HS256 JWT signed with the project's JWT secret: role `authenticated`, `sub` the user's id. */
  accessToken: Type.String(),
  expiresAt: Timestamp,
});
export type DataApiUserToken = Static<typeof DataApiUserToken>;

/**
 * The dashboard's own uses of the project's data API. GraphiQL runs queries as a chosen auth user with a
 * short-lived token minted here; the members who may mint one can read the service_role key anyway.
 */
export const dataApiRoutes = {
  mintUserToken: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/data-api/user-token',
    params: RefParams,
    body: DataApiUserTokenRequest,
    response: DataApiUserToken,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
};

/** The project's GraphQL endpoint on the dashboard's origin (the gateway serves the graphql service's `/:ref/v1` there). */
export function graphqlEndpointPath(ref: string): string {
  return `/p/${encodeURIComponent(ref)}/graphql/v1`;
}
