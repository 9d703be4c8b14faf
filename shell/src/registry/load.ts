import type { Registry } from '@dash/contracts';
import { registerRemotes } from '../federation/loader';
import { parseRegistry, RegistryError } from './validate';

export const REGISTRY_URL = '/registry.json';

/** Fetches /registry.json (never from the HTTP cache: a publish or rollback must show at once) and validates it. */
export async function fetchRegistry(): Promise<Registry> {
  let response: Response;
  try {
    response = await fetch(REGISTRY_URL, { cache: 'no-cache' });
  } catch (error) {
    throw new RegistryError('REGISTRY_UNAVAILABLE', `${REGISTRY_URL} could not be fetched: ${(error as Error)?.message ?? String(error)}`);
  }
  if (!response.ok) {
    const reason = await replyMessage(response);
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    throw new RegistryError('REGISTRY_UNAVAILABLE', `${REGISTRY_URL} answered ${status}${reason ? `: ${reason}` : ''}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new RegistryError('REGISTRY_INVALID', `${REGISTRY_URL} is not JSON: ${(error as Error)?.message ?? String(error)}`);
  }
  return parseRegistry(body);
}

/** The `message` of an error reply (the gateway explains a 502 that way), if there is one. */
async function replyMessage(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body?.message === 'string' ? body.message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Boot: fetch and validate the registry, then tell Module Federation where each remote lives. Nothing is
 * loaded yet; an area loads its remote on first visit.
 */
export async function loadRegistry(): Promise<Registry> {
  const registry = await fetchRegistry();
  registerRemotes(registry.remotes.map((r) => ({ name: r.name, entry: r.entry })));
  return registry;
}
