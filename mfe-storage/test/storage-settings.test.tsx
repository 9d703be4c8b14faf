import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, permissionsAnswer, type MockAnswer } from '@dash/shell-sdk/testing';
import { FREE_PLAN_UPLOAD_LIMIT_BYTES, MAX_UPLOAD_LIMIT_BYTES, Messages } from '@dash/contracts';
import { UPLOAD_LIMIT_REQUIRED, validateUploadLimit } from '../src/pages/StorageSettingsPage';
import { renderStorageSettings } from './render';

const url = '/project/default/settings/storage';
const CONFIG = '/api/platform/projects/default/config/storage';

function service(role: 'owner' | 'read_only', config: { fileSizeLimit: number; isFreeTier: boolean }, overrides: Record<string, MockAnswer> = {}) {
  let current = config;
  return mockFetch({
    ...permissionsAnswer('default', role),
    [`GET ${CONFIG}`]: () => ({ body: current }),
    [`PATCH ${CONFIG}`]: async (request) => {
      current = { ...current, ...((await request.clone().json()) as { fileSizeLimit: number }) };
      return { body: current };
    },
    ...overrides,
  });
}

const field = () => screen.getByRole('textbox', { name: 'Upload file size limit' }) as HTMLInputElement;
const unit = () => screen.getByRole('combobox', { name: 'Upload file size limit unit' }) as HTMLSelectElement;
const save = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
const cancel = () => screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement;

describe('upload limit rule', () => {
  it('is at most 5 GB, said in the chosen unit, and at least a byte', () => {
    expect(validateUploadLimit({ value: '5', unit: 'GB' })).toEqual({});
    expect(validateUploadLimit({ value: '6', unit: 'GB' }).value).toBe('Maximum limit is up to 5 GB.');
    expect(validateUploadLimit({ value: '5121', unit: 'MB' }).value).toBe(Messages.storageLimitMax(5120, 'MB'));
    expect(validateUploadLimit({ value: '5242881', unit: 'KB' }).value).toBe(Messages.storageLimitMax(5242880, 'KB'));
    expect(validateUploadLimit({ value: String(MAX_UPLOAD_LIMIT_BYTES + 1), unit: 'bytes' }).value).toBe(Messages.storageLimitMax(MAX_UPLOAD_LIMIT_BYTES, 'bytes'));
    expect(validateUploadLimit({ value: '', unit: 'MB' }).value).toBe(UPLOAD_LIMIT_REQUIRED);
    expect(validateUploadLimit({ value: '0', unit: 'MB' }).value).toBe(UPLOAD_LIMIT_REQUIRED);
  });
});

describe('storage settings page', () => {
  it('shows the limit in its unit, checks the maximum in the chosen unit, and saves it in bytes', async () => {
    const fetchMock = service('owner', { fileSizeLimit: 100 * 1024 * 1024, isFreeTier: false });
    renderStorageSettings(url);
    await screen.findByRole('form', { name: 'Upload file size limit' });
    expect(field().value).toBe('100');
    expect(unit().value).toBe('MB');
    expect(Array.from(unit().options).map((o) => o.value)).toEqual(['bytes', 'KB', 'MB', 'GB']);
    expect(save().disabled).toBe(true);
    expect(cancel().disabled).toBe(true);

    await userEvent.selectOptions(unit(), 'GB');
    expect(screen.getByRole('alert').textContent).toBe('Maximum limit is up to 5 GB.');
    await userEvent.click(save());
    expect(fetchMock.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    await userEvent.clear(field());
    await userEvent.type(field(), '2x');
    expect(field().value).toBe('2');
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(save());
    expect(await screen.findByText(Messages.storageSettingsUpdated)).toBeTruthy();
    expect(await fetchMock.bodiesOf(`PATCH ${CONFIG}`)).toEqual([{ fileSizeLimit: 2 * 1024 ** 3 }]);
    await waitFor(() => expect(save().disabled).toBe(true));
    expect(field().value).toBe('2');
    expect(unit().value).toBe('GB');
  });

  it('puts the saved limit back on Cancel', async () => {
    service('owner', { fileSizeLimit: 512 * 1024, isFreeTier: false });
    renderStorageSettings(url);
    await screen.findByRole('form', { name: 'Upload file size limit' });
    expect([field().value, unit().value]).toEqual(['512', 'KB']);
    await userEvent.type(field(), '0');
    await userEvent.selectOptions(unit(), 'bytes');
    await userEvent.click(cancel());
    expect([field().value, unit().value]).toEqual(['512', 'KB']);
  });

  it('says when saving fails', async () => {
    service('owner', { fileSizeLimit: 50 * 1024 * 1024, isFreeTier: false }, { [`PATCH ${CONFIG}`]: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'limit refused' } } });
    renderStorageSettings(url);
    await screen.findByRole('form', { name: 'Upload file size limit' });
    await userEvent.clear(field());
    await userEvent.type(field(), '60');
    await userEvent.click(save());
    expect(await screen.findByText(Messages.storageSettingsFailed('limit refused'))).toBeTruthy();
  });

  it('keeps the free plan at its fixed limit, the unit selector disabled', async () => {
    service('owner', { fileSizeLimit: FREE_PLAN_UPLOAD_LIMIT_BYTES, isFreeTier: true });
    renderStorageSettings(url);
    await screen.findByRole('form', { name: 'Upload file size limit' });
    expect([field().value, unit().value]).toEqual(['50', 'MB']);
    expect(unit().disabled).toBe(true);
    expect(field().disabled).toBe(true);
    expect(save().disabled).toBe(true);
    expect(screen.getByText(/The free plan has a fixed upload limit of 50 MB/)).toBeTruthy();
  });

  it('disables the form for members without storage write and says why', async () => {
    service('read_only', { fileSizeLimit: 50 * 1024 * 1024, isFreeTier: false });
    renderStorageSettings(url);
    await screen.findByRole('form', { name: 'Upload file size limit' });
    expect(await screen.findByText(Messages.needPermissionsStorageSettings)).toBeTruthy();
    expect(field().disabled).toBe(true);
    expect(unit().disabled).toBe(true);
    expect(save().disabled).toBe(true);
  });

  it("says when the project's storage configuration cannot be read, and retries", async () => {
    let fail = true;
    service('owner', { fileSizeLimit: 1024, isFreeTier: false }, {
      [`GET ${CONFIG}`]: () => (fail ? { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'platform down' } } : { body: { fileSizeLimit: 1024, isFreeTier: false } }),
    });
    renderStorageSettings(url);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(Messages.storageConfigLoadFailed)).toBeTruthy();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByRole('form', { name: 'Upload file size limit' });
    expect([field().value, unit().value]).toEqual(['1', 'KB']);
  });
});
