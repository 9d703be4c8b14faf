import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { ConfirmProvider, Toaster } from '@dash/shell-sdk';
import {
  ADDON_CATALOG,
  DATA_API_SETTINGS_DEFAULT,
  pgMetaRoutes,
  platformRoutes,
  ProjectMessages,
  ProjectSettingsMessages,
  projectSettingsRoutes,
  ROLE_PERMISSIONS,
  type OrgRole,
  type RouteDef,
  type RouteReply,
} from '@dash/contracts';
import { AddonsPage } from '../src/settings/AddonsPage';
import { ApiSettingsPage } from '../src/settings/ApiSettingsPage';
import { AuthSettingsPage } from '../src/settings/AuthSettingsPage';
import { DatabaseSettingsPage } from '../src/settings/DatabaseSettingsPage';
import { VaultSecretsPage } from '../src/settings/VaultSecretsPage';
import { createShellStore } from '../src/store';
import { cleanupApi, json, mockFetch, project } from './helpers';

const REF = project.ref;
const base = `/api/platform/projects/${REF}`;

// ---------------------------------------------------------------- fixtures (checked against the contract below)
const databaseSettings: RouteReply<typeof projectSettingsRoutes.databaseSettings> = {
  host: '127.0.0.1',
  port: 5432,
  database: `dash_project_${REF}`,
  user: `dash_project_${REF}_admin`,
  connectionString: `postgresql://dash_project_${REF}_admin:[YOUR-PASSWORD]@127.0.0.1:5432/dash_project_${REF}`,
  passwordResetAt: null,
};
const apiSettings: RouteReply<typeof projectSettingsRoutes.apiSettings> = { projectUrl: `http://localhost/p/${REF}`, jwtSecretRotatedAt: null };
const keys = (n: number): RouteReply<typeof platformRoutes.projectApiKeys> => ({
  storageUrl: `http://localhost/p/${REF}/storage/v1`,
  anon: `anon.key.${n}`,
  service_role: `service.key.${n}`,
});
const authConfig: RouteReply<typeof platformRoutes.getAuthConfig> = { external_anonymous_users_enabled: false, site_url: 'http://localhost:3000', jwt_expiry: 3600 };
const secret = { id: '5b0c2f4e-0c1a-4e55-9a55-3b1f0e7a0d11', name: 'stripe_key', description: 'Payments', created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z' };
const secrets: RouteReply<typeof projectSettingsRoutes.listVaultSecrets> = { secrets: [secret] };
const addons = (selected: RouteReply<typeof projectSettingsRoutes.listAddons>['selected_addons'], isFreeTier = false): RouteReply<typeof projectSettingsRoutes.listAddons> => ({
  ref: REF,
  selected_addons: selected,
  available_addons: ADDON_CATALOG.map(({ type, name, description, variants }) => ({ type, name, description, variants })),
  isFreeTier,
});

const dataApi: RouteReply<typeof projectSettingsRoutes.dataApiSettings> = { ...DATA_API_SETTINGS_DEFAULT };
const projectSchemas: RouteReply<typeof pgMetaRoutes.listSchemas> = ['api', 'auth', 'extensions', 'private', 'public', 'storage'].map((name, i) => ({
  id: 2200 + i,
  name,
  owner: `dash_project_${REF}_admin`,
}));

describe('fixtures', () => {
  it('match the contract', () => {
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    const check = (def: RouteDef, value: unknown) => expect({ route: def.url, errors: ajv.validate(def.response, value) ? null : ajv.errorsText() }).toEqual({ route: def.url, errors: null });
    check(projectSettingsRoutes.databaseSettings, databaseSettings);
    check(projectSettingsRoutes.apiSettings, apiSettings);
    check(projectSettingsRoutes.dataApiSettings, dataApi);
    check(pgMetaRoutes.listSchemas, projectSchemas);
    check(platformRoutes.projectApiKeys, keys(1));
    check(platformRoutes.getAuthConfig, authConfig);
    check(projectSettingsRoutes.listVaultSecrets, secrets);
    check(projectSettingsRoutes.listAddons, addons([{ type: 'pitr', variant: ADDON_CATALOG[0]!.variants[0]! }]));
  });
});

// ---------------------------------------------------------------- rendering
let store: ReturnType<typeof createShellStore> | undefined;
afterEach(async () => {
  if (store) await cleanupApi(store);
  store = undefined;
  jest.restoreAllMocks();
});

const permissions = (role: OrgRole) => ({ [`GET ${base}/permissions`]: () => json(200, { role, permissions: ROLE_PERMISSIONS[role] }) });

function renderPage(path: string, element: ReactElement) {
  store = createShellStore();
  const router = createMemoryRouter([{ path: `/project/:ref/settings/${path}`, element }], { initialEntries: [`/project/${REF}/settings/${path}`] });
  render(
    <Provider store={store}>
      <ConfirmProvider>
        <RouterProvider router={router} />
        <Toaster />
      </ConfirmProvider>
    </Provider>,
  );
}

/** The button once the member's permissions have loaded (until then it is disabled, inside a tooltip). */
async function enabledButton(name: string | RegExp, scope: HTMLElement = document.body): Promise<HTMLButtonElement> {
  await waitFor(() => expect((within(scope).getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(false));
  return within(scope).getByRole('button', { name }) as HTMLButtonElement;
}

describe('API settings', () => {
  it('masks the keys until revealed, copies them, and rotates the JWT secret after a confirmation', async () => {
    let generation = 1;
    const writeText = jest.fn(async () => {});
    Object.assign(navigator, { clipboard: { writeText } });
    const { calls } = mockFetch({
      ...permissions('owner'),
      [`GET ${base}/settings/api`]: () => json(200, apiSettings),
      [`GET ${base}/api-keys`]: () => json(200, keys(generation)),
      [`POST ${base}/settings/api/jwt-secret`]: () => {
        generation += 1;
        return json(200, { ...apiSettings, jwtSecretRotatedAt: '2025-02-03T04:05:06.000Z' });
      },
    });
    renderPage('api', <ApiSettingsPage />);
    await screen.findByText(apiSettings.projectUrl);
    await screen.findByRole('button', { name: 'Reveal the anon key' });
    expect(screen.queryByText('anon.key.1')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reveal the anon key' }));
    expect(screen.getByText('anon.key.1')).toBeTruthy();
    expect(screen.queryByText('service.key.1')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Copy the service_role key' }));
    await screen.findByText(ProjectSettingsMessages.copied('the service_role key'));
    expect(writeText).toHaveBeenCalledWith('service.key.1');

    fireEvent.click(await enabledButton('Rotate JWT secret'));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the JWT secret?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate JWT secret' }));
    await screen.findByText(ProjectSettingsMessages.jwtSecretRotated);
    await screen.findByText('anon.key.2');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(screen.getByText(/Last rotated: (?!never)/)).toBeTruthy();
  });

  it('tells members without the permission why they see no keys and cannot rotate', async () => {
    const { calls } = mockFetch({ ...permissions('read_only'), [`GET ${base}/settings/api`]: () => json(200, apiSettings) });
    renderPage('api', <ApiSettingsPage />);
    await screen.findByText(ProjectSettingsMessages.needPermissionsApiKeys);
    expect((screen.getByRole('button', { name: 'Rotate JWT secret' }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((c) => c.path.endsWith('/api-keys'))).toBe(false);
  });
});

describe('data API settings', () => {
  const dataApiRoutes = (role: OrgRole, put?: (body: unknown) => Response) => ({
    ...permissions(role),
    [`GET ${base}/settings/api`]: () => json(200, apiSettings),
    [`GET ${base}/api-keys`]: () => json(200, keys(1)),
    [`GET ${base}/settings/api/data-api`]: () => json(200, dataApi),
    [`GET /api/pg-meta/${REF}/schemas`]: () => json(200, projectSchemas),
    ...(put ? { [`PUT ${base}/settings/api/data-api`]: ({ body }: { body: unknown }) => put(body) } : {}),
  });
  const form = () => screen.findByRole('form', { name: 'Data API settings' });

  it("offers the project's own schemas, checks the fields, and saves the settings in the order chosen", async () => {
    const { calls } = mockFetch(dataApiRoutes('developer', (body) => json(200, body)));
    renderPage('api', <ApiSettingsPage />);
    const section = await form();
    const schemas = within(section).getByRole('group', { name: 'Exposed schemas' });
    await waitFor(() => expect(within(schemas).getAllByRole('checkbox').map((box) => box.parentElement!.textContent)).toEqual(['api', 'private', 'public']));
    expect((within(schemas).getByRole('checkbox', { name: 'public' }) as HTMLInputElement).checked).toBe(true);
    expect(within(section).getByText('Default schema: public')).toBeTruthy();
    // Nothing changed yet (a change below enables it).
    expect((within(section).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(schemas).getByRole('checkbox', { name: 'api' }));
    expect(within(section).getByText('Default schema: public, then api')).toBeTruthy();
    const maxRows = within(section).getByLabelText('Max rows');
    fireEvent.change(maxRows, { target: { value: '0' } });
    fireEvent.blur(maxRows);
    expect(await within(section).findByText(ProjectSettingsMessages.dataApiMaxRowsRange)).toBeTruthy();
    fireEvent.change(maxRows, { target: { value: '2000000' } });
    expect(within(section).getByText(ProjectSettingsMessages.dataApiMaxRowsRange)).toBeTruthy();
    const pre = within(section).getByLabelText('Pre-request function');
    fireEvent.change(pre, { target: { value: 'check_request' } });
    fireEvent.blur(pre);
    expect(await within(section).findByText(ProjectSettingsMessages.dataApiPreRequestName)).toBeTruthy();
    const path = within(section).getByLabelText('Extra search path');
    fireEvent.change(path, { target: { value: 'public, extensions, public' } });
    fireEvent.blur(path);
    expect(await within(section).findByText(ProjectSettingsMessages.dataApiRepeatedSchema('public', 'extra search path'))).toBeTruthy();
    // An invalid form is not sent.
    fireEvent.click(await enabledButton('Save', section));
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    fireEvent.change(maxRows, { target: { value: '250' } });
    fireEvent.change(pre, { target: { value: 'api.check_request' } });
    fireEvent.change(path, { target: { value: 'extensions, public' } });
    fireEvent.click(within(section).getByRole('switch', { name: 'Enable aggregate functions' }));
    fireEvent.click(await enabledButton('Save', section));
    await screen.findByText(ProjectSettingsMessages.dataApiSettingsSaved);
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { schemas: ['public', 'api'], extraSearchPath: ['extensions', 'public'], maxRows: 250, aggregatesEnabled: true, preRequest: 'api.check_request' },
    ]);
    // The form shows what was stored, with nothing left to save.
    await waitFor(() => expect((within(section).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true));
    expect((within(section).getByLabelText('Max rows') as HTMLInputElement).value).toBe('250');
  });

  it("shows the platform's reason when it refuses a change", async () => {
    const reason = ProjectSettingsMessages.dataApiPreRequestMissing('api.nothing');
    mockFetch(dataApiRoutes('owner', () => json(400, { statusCode: 400, error: 'Bad Request', message: reason })));
    renderPage('api', <ApiSettingsPage />);
    const section = await form();
    fireEvent.change(within(section).getByLabelText('Pre-request function'), { target: { value: 'api.nothing' } });
    fireEvent.click(await enabledButton('Save', section));
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toBe(ProjectSettingsMessages.dataApiSettingsFailed(reason));
    // Still what the member typed, to correct it.
    expect((within(section).getByLabelText('Pre-request function') as HTMLInputElement).value).toBe('api.nothing');
  });

  it('lets read-only members see the settings and tells them why they cannot save', async () => {
    const { calls } = mockFetch(dataApiRoutes('read_only'));
    renderPage('api', <ApiSettingsPage />);
    const section = await form();
    await within(section).findByRole('checkbox', { name: 'public' });
    await waitFor(() => expect(within(section).getByRole('tooltip', { hidden: true }).textContent).toBe(ProjectSettingsMessages.needPermissionsDataApi));
    expect((within(section).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    for (const name of ['Max rows', 'Extra search path', 'Pre-request function']) expect((within(section).getByLabelText(name) as HTMLInputElement).disabled).toBe(true);
    expect((within(section).getByRole('checkbox', { name: 'public' }) as HTMLInputElement).disabled).toBe(true);
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });
});

describe('database settings', () => {
  it('shows the connection parameters and resets the password with a valid one', async () => {
    const { calls } = mockFetch({
      ...permissions('administrator'),
      [`GET ${base}/settings/database`]: () => json(200, databaseSettings),
      [`POST ${base}/settings/database/password`]: () => json(200, { ...databaseSettings, passwordResetAt: '2025-02-03T04:05:06.000Z' }),
    });
    renderPage('database', <DatabaseSettingsPage />);
    await screen.findByText(databaseSettings.connectionString);
    expect(screen.getByRole('status', { name: 'User' }).textContent).toBe(databaseSettings.user);
    expect(screen.getByText('Last reset: never')).toBeTruthy();

    fireEvent.click(await enabledButton('Reset database password'));
    const dialog = await screen.findByRole('dialog', { name: 'Reset database password' });
    const input = within(dialog).getByLabelText(`New password for ${databaseSettings.user}`);
    fireEvent.change(input, { target: { value: 'only-lowercase-here' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    await within(dialog).findByText(ProjectMessages.passwordTooSimple);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(input, { target: { value: 'A-Much-Better-Pass-42' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    await screen.findByText(ProjectSettingsMessages.passwordReset);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ password: 'A-Much-Better-Pass-42' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText('Last reset: never')).toBeNull();
  });

  it('keeps the reset for owners and administrators', async () => {
    mockFetch({ ...permissions('developer'), [`GET ${base}/settings/database`]: () => json(200, databaseSettings) });
    renderPage('database', <DatabaseSettingsPage />);
    await screen.findByText(databaseSettings.connectionString);
    await screen.findByText(ProjectSettingsMessages.needPermissionsPassword);
    expect((screen.getByRole('button', { name: 'Reset database password' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('auth settings', () => {
  it('checks the site URL and the expiry, then saves what changed', async () => {
    const { calls } = mockFetch({
      ...permissions('developer'),
      [`GET ${base}/config/auth`]: () => json(200, authConfig),
      [`PATCH ${base}/config/auth`]: (request) => json(200, { ...authConfig, ...(request.body as object) }),
    });
    renderPage('auth', <AuthSettingsPage />);
    const site = await screen.findByLabelText('Site URL');
    await waitFor(() => expect((site as HTMLInputElement).disabled).toBe(false));
    fireEvent.change(site, { target: { value: 'ftp://example.com' } });
    fireEvent.blur(site);
    await screen.findByText(ProjectSettingsMessages.siteUrlInvalid);
    const expiry = screen.getByLabelText('JWT expiry');
    fireEvent.change(expiry, { target: { value: '10' } });
    fireEvent.blur(expiry);
    await screen.findByText(ProjectSettingsMessages.jwtExpiryRange);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    fireEvent.change(site, { target: { value: 'https://app.example.com' } });
    fireEvent.change(expiry, { target: { value: '7200' } });
    fireEvent.click(screen.getByLabelText('Allow anonymous sign-ins'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(ProjectSettingsMessages.authSettingsSaved);
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { site_url: 'https://app.example.com', jwt_expiry: 7200, external_anonymous_users_enabled: true },
    ]);
  });
});

describe('vault', () => {
  it('reveals a value on request, adds a secret and deletes one after a confirmation', async () => {
    let listed = [secret];
    const { calls } = mockFetch({
      ...permissions('developer'),
      [`GET ${base}/vault/secrets`]: () => json(200, { secrets: listed }),
      [`POST ${base}/vault/secrets/${secret.id}/reveal`]: () => json(200, { id: secret.id, name: secret.name, secret: 'sk_live_42' }),
      [`POST ${base}/vault/secrets`]: (request) => {
        const body = request.body as { name: string; description: string };
        const created = { ...secret, id: '0f5e8a3c-8f55-4a4a-9f59-2d8a71b1c2d3', name: body.name, description: body.description };
        listed = [...listed, created];
        return json(201, created);
      },
      [`DELETE ${base}/vault/secrets/${secret.id}`]: () => {
        listed = listed.filter((s) => s.id !== secret.id);
        return json(200, secret);
      },
    });
    renderPage('vault/secrets', <VaultSecretsPage />);
    const row = (await screen.findByText('stripe_key')).closest('tr')!;
    expect(within(row).queryByText('sk_live_42')).toBeNull();
    fireEvent.click(await enabledButton('Reveal stripe_key', row));
    await within(row).findByText('sk_live_42');
    fireEvent.click(within(row).getByRole('button', { name: 'Hide stripe_key' }));
    expect(within(row).queryByText('sk_live_42')).toBeNull();

    fireEvent.click(screen.getAllByRole('button', { name: 'Add new secret' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add new secret' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' padded' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add secret' }));
    await within(dialog).findByText(ProjectSettingsMessages.secretNameWhitespace);
    await within(dialog).findByText(ProjectSettingsMessages.secretValueRequired);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'mail_password' } });
    fireEvent.change(within(dialog).getByLabelText('Secret value'), { target: { value: 'hunter2' } });
    fireEvent.change(within(dialog).getByLabelText('Description (optional)'), { target: { value: ' SMTP ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add secret' }));
    await screen.findByText(ProjectSettingsMessages.secretCreated('mail_password'));
    expect(calls.filter((c) => c.method === 'POST' && c.path.endsWith('/vault/secrets')).map((c) => c.body)).toEqual([
      { name: 'mail_password', secret: 'hunter2', description: 'SMTP' },
    ]);
    await screen.findByText('mail_password');

    fireEvent.click(within(screen.getByText('stripe_key').closest('tr')!).getByRole('button', { name: 'Delete stripe_key' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete secret stripe_key?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete secret' }));
    await screen.findByText(ProjectSettingsMessages.secretDeleted('stripe_key'));
    await waitFor(() => expect(screen.queryByText('stripe_key')).toBeNull());
  });

  it('shows the empty vault, and keeps reveal and add for members who may change the database', async () => {
    mockFetch({ ...permissions('read_only'), [`GET ${base}/vault/secrets`]: () => json(200, { secrets: [] }) });
    renderPage('vault/secrets', <VaultSecretsPage />);
    await screen.findByText(ProjectSettingsMessages.noSecrets);
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Add new secret' }).every((b) => (b as HTMLButtonElement).disabled)).toBe(true));
  });
});

describe('add-ons', () => {
  it('adds and removes an add-on for owners, and points the free plan to billing', async () => {
    let selected: RouteReply<typeof projectSettingsRoutes.listAddons>['selected_addons'] = [];
    const pitr = ADDON_CATALOG.find((a) => a.type === 'pitr')!;
    const { calls } = mockFetch({
      ...permissions('owner'),
      [`GET /api/platform/projects/${REF}`]: () => json(200, { ...project, role: 'owner' }),
      [`GET ${base}/billing/addons`]: () => json(200, addons(selected)),
      [`POST ${base}/billing/addons`]: (request) => {
        const body = request.body as { addon_type: 'pitr'; addon_variant: string };
        selected = [{ type: body.addon_type, variant: pitr.variants.find((v) => v.identifier === body.addon_variant)! }];
        return json(200, addons(selected));
      },
      [`DELETE ${base}/billing/addons/pitr_14`]: () => {
        selected = [];
        return json(200, addons(selected));
      },
    });
    renderPage('addons', <AddonsPage />);
    const row = (await screen.findByText(pitr.name)).closest('[data-addon]') as HTMLElement;
    await act(async () => {
      fireEvent.change(within(row).getByLabelText(`${pitr.name} option`), { target: { value: 'pitr_14' } });
    });
    fireEvent.click(await enabledButton(`Add ${pitr.name}`, row));
    await screen.findByText(ProjectSettingsMessages.addonSelected(`${pitr.name}: 14 days`));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ addon_type: 'pitr', addon_variant: 'pitr_14' }]);
    await within(row).findByText('Selected: 14 days ($200 / month)');
    fireEvent.click(within(row).getByRole('button', { name: 'Remove' }));
    await screen.findByText(ProjectSettingsMessages.addonRemoved(pitr.name));
    await within(row).findByText('Not selected');
    expect(screen.getByRole('link', { name: 'Usage' }).getAttribute('href')).toBe(`/org/${project.organization_slug}/usage?projectRef=${REF}`);
  });

  it('locks add-ons on the free plan with a link to billing', async () => {
    mockFetch({
      ...permissions('owner'),
      [`GET /api/platform/projects/${REF}`]: () => json(200, project),
      [`GET ${base}/billing/addons`]: () => json(200, addons([], true)),
    });
    renderPage('addons', <AddonsPage />);
    expect((await screen.findByRole('note')).textContent).toContain(ProjectSettingsMessages.addonNeedsPaidPlan);
    expect(screen.getByRole('link', { name: 'Upgrade plan' }).getAttribute('href')).toBe(`/org/${project.organization_slug}/billing`);
    await waitFor(() => expect(screen.getAllByRole('button', { name: /^Add / }).every((b) => (b as HTMLButtonElement).disabled)).toBe(true));
  });
});
