import type { FastifyRequest } from 'fastify';
import { StorageApiMessages } from '@dash/contracts';
import { projectRequestToken, verifyJwt, type ProjectKeyCaller } from '@dash/service-kit';
import { accessDenied } from './api-errors';
import type { ProjectSettingsResolver } from './project-settings';

/** The database roles a token may name to use the storage API. */
export const API_ROLES: readonly string[] = ['anon', 'authenticated', 'service_role'];

/**
 * Verifies the token of a storage API call with the project's JWT secret. A missing, invalid or expired
 * token is refused as Supabase Storage refuses it (AccessDenied, sent with HTTP 400), a role other than
 * anon, authenticated or service_role with HTTP 403. The caller acts as that role with the token's
 * claims (so `auth.uid()` in a policy is the token's `sub`).
 */
export function projectKeyVerifier(settings: ProjectSettingsResolver): (request: FastifyRequest) => Promise<ProjectKeyCaller> {
  return async (request) => {
    const token = projectRequestToken(request.headers);
    if (!token) throw accessDenied(StorageApiMessages.missingKey);
    const { ref } = request.params as { ref: string };
    const { jwtSecret } = await settings(ref);
    const verified = verifyJwt(jwtSecret, token);
    if ('error' in verified) throw accessDenied(verified.error);
    const role = verified.claims.role;
    if (typeof role !== 'string' || !API_ROLES.includes(role)) throw accessDenied(StorageApiMessages.roleNotAllowed(String(role ?? '')), 403);
    return { role, claims: verified.claims };
  };
}
