import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeRequest } from '@dash/shell-sdk/routes';
import { projectSettingsRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };
type SecretRef = Ref & { id: string };
const tag = (ref: string) => [{ type: 'Project' as const, id: `${ref}:vault-secrets` }];

/** Vault secrets: listed by name; a value only comes back from an explicit reveal (a mutation: never cached). */
export const vaultSecretsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    vaultSecrets: routeQuery(build, projectSettingsRoutes.listVaultSecrets, { providesTags: (_r, _e, { ref }) => tag(ref) }),
    createVaultSecret: build.mutation<RouteReply<typeof projectSettingsRoutes.createVaultSecret>, Ref & { body: RouteBody<typeof projectSettingsRoutes.createVaultSecret> }>({
      query: ({ ref, body }) => routeRequest(projectSettingsRoutes.createVaultSecret, { params: { ref }, body }),
      invalidatesTags: (_r, error, { ref }) => (error ? [] : tag(ref)),
    }),
    revealVaultSecret: build.mutation<RouteReply<typeof projectSettingsRoutes.revealVaultSecret>, SecretRef>({
      query: ({ ref, id }) => routeRequest(projectSettingsRoutes.revealVaultSecret, { params: { ref, id } }),
    }),
    deleteVaultSecret: build.mutation<RouteReply<typeof projectSettingsRoutes.deleteVaultSecret>, SecretRef>({
      query: ({ ref, id }) => routeRequest(projectSettingsRoutes.deleteVaultSecret, { params: { ref, id } }),
      invalidatesTags: (_r, error, { ref }) => (error ? [] : tag(ref)),
    }),
  }),
  overrideExisting: 'throw',
});

export const { useVaultSecretsQuery, useCreateVaultSecretMutation, useRevealVaultSecretMutation, useDeleteVaultSecretMutation } = vaultSecretsApi;
