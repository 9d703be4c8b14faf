import { screen } from '@testing-library/react';
import { parseRegistry, RegistryError } from '../src/registry/validate';
import { loadRegistry } from '../src/registry/load';
import { registerRemotes } from '../src/federation/loader';
import { cleanupApi, json, mockFetch, registry, renderShell } from './helpers';

jest.mock('../src/federation/loader', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn(), loadManifest: jest.fn() }));

function rejection(candidate: unknown): RegistryError {
  try {
    parseRegistry(candidate);
  } catch (error) {
    if (error instanceof RegistryError) return error;
    throw error;
  }
  throw new Error('parseRegistry accepted an invalid registry');
}

beforeEach(() => jest.clearAllMocks());
afterEach(() => jest.restoreAllMocks());

describe('registry validation', () => {
  it('accepts a valid registry', () => {
    expect(parseRegistry(structuredClone(registry))).toEqual(registry);
    expect(parseRegistry({ schemaVersion: 1, remotes: [] })).toEqual({ schemaVersion: 1, remotes: [] });
  });

  it('rejects a remote with a missing field, naming it', () => {
    const { mount: _mount, ...withoutMount } = registry.remotes[0]!;
    const error = rejection({ schemaVersion: 1, remotes: [withoutMount] });
    expect(error.code).toBe('REGISTRY_INVALID');
    expect(error.message).toContain("registry/remotes/0 must have required property 'mount'");
  });

  it('rejects an invalid entry with the schema message', () => {
    const error = rejection({ schemaVersion: 1, remotes: [{ ...registry.remotes[0], entry: 'http://cdn.example.com/remoteEntry.js' }] });
    expect(error.code).toBe('REGISTRY_INVALID');
    expect(error.message).toContain('registry/remotes/0/entry must match pattern');
  });

  it('rejects unknown fields, a wrong schema version and duplicate names', () => {
    expect(rejection({ ...registry, extra: true }).message).toContain('must NOT have additional properties');
    expect(rejection({ ...registry, schemaVersion: 2 }).message).toContain('registry/schemaVersion must be equal to constant');
    const twice = { schemaVersion: 1, remotes: [registry.remotes[0], { ...registry.remotes[0], mount: 'other' }] };
    expect(rejection(twice).message).toBe('registry/remotes/1/name "mfe_table_editor" is used twice');
  });
});

describe('loading the registry at boot', () => {
  it('fetches /registry.json without the HTTP cache and registers every remote with Module Federation', async () => {
    const { spy } = mockFetch({ 'GET /registry.json': () => json(200, registry) });
    await expect(loadRegistry()).resolves.toEqual(registry);
    expect(spy).toHaveBeenCalledWith('/registry.json', { cache: 'no-cache' });
    expect(registerRemotes).toHaveBeenCalledWith([
      { name: 'mfe_table_editor', entry: registry.remotes[0]!.entry },
      { name: 'mfe_logs', entry: registry.remotes[1]!.entry },
    ]);
  });

  it('shows REGISTRY_UNAVAILABLE with the HTTP status when the registry cannot be fetched', async () => {
    mockFetch({ 'GET /registry.json': () => new Response('down', { status: 503, statusText: 'Service Unavailable' }) });
    const shell = renderShell('/projects', { registry: null });
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByTestId('error-code').textContent).toBe('REGISTRY_UNAVAILABLE');
    expect(screen.getByText('/registry.json answered 503 Service Unavailable')).toBeTruthy();
    await cleanupApi(shell.store);
  });

  it("includes the gateway's explanation of a failed registry", async () => {
    mockFetch({
      'GET /registry.json': () =>
        new Response(JSON.stringify({ statusCode: 502, error: 'Bad Gateway', message: 'The platform service returned an invalid registry' }), {
          status: 502,
          statusText: 'Bad Gateway',
          headers: { 'content-type': 'application/json' },
        }),
    });
    await expect(loadRegistry()).rejects.toMatchObject({
      code: 'REGISTRY_UNAVAILABLE',
      message: '/registry.json answered 502 Bad Gateway: The platform service returned an invalid registry',
    });
  });

  it('shows REGISTRY_INVALID with the ajv message when the registry does not match the schema', async () => {
    mockFetch({ 'GET /registry.json': () => json(200, { schemaVersion: 1, remotes: [{ name: 'Bad Name' }] }) });
    const shell = renderShell('/projects', { registry: null });
    expect((await screen.findByTestId('error-code')).textContent).toBe('REGISTRY_INVALID');
    expect(screen.getByText(/registry\/remotes\/0\/name must match pattern/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back to projects' })).toBeTruthy();
    expect(registerRemotes).not.toHaveBeenCalled();
    await cleanupApi(shell.store);
  });
});
