import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { projectSettingsRoutes, type RouteBody } from '@dash/contracts';

type Ref = { ref: string };
const tag = (ref: string) => [{ type: 'Project' as const, id: `${ref}:vault-secrets` }];

/** Vault secrets: listed by name; a value only comes back from an explicit reveal (a mutation: never cached). */
export const vaultSecretsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    vaultSecrets: routeQuery(build, projectSettingsRoutes.listVaultSecrets, { providesTags: (_r, _e, { ref }) => tag(ref) }),
    createVaultSecret: routeMutation(build, projectSettingsRoutes.createVaultSecret, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof projectSettingsRoutes.createVaultSecret> }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, error, { ref }) => (error ? [] : tag(ref)),
    }),
    revealVaultSecret: routeMutation(build, projectSettingsRoutes.revealVaultSecret),
    deleteVaultSecret: routeMutation(build, projectSettingsRoutes.deleteVaultSecret, { invalidatesTags: (_r, error, { ref }) => (error ? [] : tag(ref)) }),
  }),
  overrideExisting: 'throw',
});

export const { useVaultSecretsQuery, useCreateVaultSecretMutation, useRevealVaultSecretMutation, useDeleteVaultSecretMutation } = vaultSecretsApi;
