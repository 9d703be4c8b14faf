import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router-dom';
import { mockFetch, permissionsAnswer, type MockAnswer } from '@dash/shell-sdk/testing';
import { Messages, type Bucket } from '@dash/contracts';
import { BucketActions } from '../src/components/BucketActions';
import { avatars, bucketsReply, invoices } from './fixtures';
import { currentPath, renderRoutes, renderStorage } from './render';

const url = '/project/default/storage/buckets';
const BUCKETS = 'GET /api/storage/default/buckets';
const bucketPath = (id: string) => `/api/storage/default/buckets/${id}`;
const fail = (status: number, message: string): MockAnswer => ({ status, body: { statusCode: status, error: 'Error', message } });

/** A storage service that keeps the buckets, so lists after a write show it. */
function storageService(role: 'owner' | 'read_only' = 'owner', overrides: Record<string, MockAnswer> = {}) {
  let buckets: Bucket[] = [...bucketsReply];
  const answers: Record<string, MockAnswer> = {
    ...permissionsAnswer('default', role),
    [BUCKETS]: () => ({ body: buckets }),
    [`PATCH ${bucketPath('avatars')}`]: async (request) => {
      const body = (await request.clone().json()) as Partial<Bucket>;
      const updated = { ...avatars, ...body };
      buckets = buckets.map((b) => (b.id === 'avatars' ? updated : b));
      return { body: updated };
    },
    [`POST ${bucketPath('avatars')}/empty`]: { body: { message: 'Successfully emptied' } },
    [`DELETE ${bucketPath('avatars')}`]: () => {
      buckets = buckets.filter((b) => b.id !== 'avatars');
      return { body: { message: 'Successfully deleted', deletedPolicies: ['Anyone reads avatars'] } };
    },
    ...overrides,
  };
  return mockFetch(answers);
}

async function openMenu(bucket: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Actions for bucket ${bucket}` }));
  return screen.getByRole('menu', { name: `Actions for bucket ${bucket}` });
}

async function choose(bucket: string, item: string) {
  const menuItem = within(await openMenu(bucket)).getByRole('menuitem', { name: item }) as HTMLButtonElement;
  // Enabled once the member's permissions are in.
  await waitFor(() => expect(menuItem.disabled).toBe(false));
  await userEvent.click(menuItem);
}

const writes = (calls: Request[]) => calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${new URL(c.url).pathname}`);

describe('bucket menu', () => {
  it('offers Edit bucket, Empty bucket and Delete bucket on each bucket of the list', async () => {
    storageService();
    renderStorage(url);
    const menu = await openMenu('avatars');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Edit bucket', 'Empty bucket', 'Delete bucket']);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Actions for bucket avatars' }));
  });

  it('moves between the items with the arrow keys', async () => {
    storageService();
    renderStorage(url);
    const menu = await openMenu('invoices');
    const [edit, empty, remove] = within(menu).getAllByRole('menuitem');
    expect(document.activeElement).toBe(edit);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(empty);
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement).toBe(remove);
  });

  it('disables every bucket action for members without storage write, with the reason on hover', async () => {
    const fetchMock = storageService('read_only');
    renderStorage(url);
    const menu = await openMenu('avatars');
    const items = within(menu).getAllByRole('menuitem') as HTMLButtonElement[];
    expect(items.every((item) => item.disabled)).toBe(true);
    // Each action gives its own reason.
    const reasons = [Messages.needPermissionsEditBuckets, Messages.needPermissionsEmptyBuckets, Messages.needPermissionsDeleteBuckets];
    for (const [index, reason] of reasons.entries()) {
      await userEvent.hover(items[index]!.parentElement!);
      expect(within(menu).getByRole('tooltip').textContent).toBe(reason);
      await userEvent.unhover(items[index]!.parentElement!);
    }
    await userEvent.click(items[2]!);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(writes(fetchMock.calls)).toEqual([]);
  });
});

describe('edit bucket', () => {
  it('starts from the bucket, keeps its name fixed, warns when making it private, and saves', async () => {
    const fetchMock = storageService();
    renderStorage(url);
    await choose('avatars', 'Edit bucket');
    const dialog = screen.getByRole('dialog', { name: 'Edit bucket avatars' });

    const name = within(dialog).getByRole('textbox', { name: 'Name of bucket' }) as HTMLInputElement;
    expect(name.value).toBe('avatars');
    expect(name.disabled).toBe(true);
    expect(within(dialog).getByText('The name of a bucket cannot be changed after it is created.')).toBeTruthy();
    expect((within(dialog).getByRole('switch', { name: 'Public bucket' }) as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByRole('textbox', { name: 'File size limit' }) as HTMLInputElement).value).toBe('2');
    expect((within(dialog).getByRole('combobox', { name: 'File size limit unit' }) as HTMLSelectElement).value).toBe('MB');
    expect((within(dialog).getByRole('textbox', { name: 'Allowed MIME types' }) as HTMLInputElement).value).toBe('image/*, application/pdf');
    expect(within(dialog).queryByText('Making this bucket private')).toBeNull();

    await userEvent.click(within(dialog).getByRole('switch', { name: 'Public bucket' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('Making this bucket private');
    const size = within(dialog).getByRole('textbox', { name: 'File size limit' });
    await userEvent.clear(size);
    await userEvent.type(size, '512');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'File size limit unit' }), 'KB');
    const mime = within(dialog).getByRole('textbox', { name: 'Allowed MIME types' });
    await userEvent.clear(mime);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Successfully updated bucket avatars')).toBeTruthy();
    expect(await fetchMock.bodiesOf(`PATCH ${bucketPath('avatars')}`)).toEqual([{ public: false, file_size_limit: 524288, allowed_mime_types: null }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    const row = screen.getByRole('link', { name: 'avatars' }).closest('tr')!;
    await waitFor(() => expect(within(row).getAllByRole('cell')[1]!.textContent).toBe('Private'));
    expect(within(row).getAllByRole('cell')[2]!.textContent).toBe('512 KB');
  });

  it('warns when making a private bucket public', async () => {
    storageService();
    renderStorage(url);
    await choose('invoices', 'Edit bucket');
    const dialog = screen.getByRole('dialog', { name: 'Edit bucket invoices' });
    expect((within(dialog).getByRole('switch', { name: /Restrict file upload size/ }) as HTMLInputElement).checked).toBe(false);
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Public bucket' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('Making this bucket public');
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Public bucket' }));
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('checks the size limit and shows a failed update', async () => {
    const fetchMock = storageService('owner', { [`PATCH ${bucketPath('invoices')}`]: fail(400, 'file_size_limit is too large') });
    renderStorage(url);
    await choose('invoices', 'Edit bucket');
    const dialog = screen.getByRole('dialog', { name: 'Edit bucket invoices' });
    await userEvent.click(within(dialog).getByRole('switch', { name: /Restrict file upload size/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText(Messages.bucketSizeLimitMin)).toBeTruthy();
    expect(writes(fetchMock.calls)).toEqual([]);

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'File size limit' }), '9');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'File size limit unit' }), 'GB');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(Messages.updateBucketFailed('file_size_limit is too large'))).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Edit bucket invoices' })).toBeTruthy();
    expect(await fetchMock.bodiesOf(`PATCH ${bucketPath('invoices')}`)).toEqual([{ public: false, file_size_limit: 9 * 1024 ** 3, allowed_mime_types: null }]);
  });
});

describe('empty bucket', () => {
  it('asks first, then empties the bucket', async () => {
    const fetchMock = storageService();
    renderStorage(url);
    await choose('avatars', 'Empty bucket');
    const confirm = screen.getByRole('dialog', { name: 'Empty bucket avatars' });
    expect(confirm.textContent).toContain(Messages.thisCannotBeUndone);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(writes(fetchMock.calls)).toEqual([]);

    await choose('avatars', 'Empty bucket');
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Empty bucket avatars' })).getByRole('button', { name: 'Empty bucket' }));
    expect(await screen.findByText('Successfully emptied bucket avatars')).toBeTruthy();
    expect(writes(fetchMock.calls)).toEqual([`POST ${bucketPath('avatars')}/empty`]);
  });

  it('says when emptying fails', async () => {
    storageService('owner', { [`POST ${bucketPath('avatars')}/empty`]: fail(500, 'disk unavailable') });
    renderStorage(url);
    await choose('avatars', 'Empty bucket');
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Empty bucket avatars' })).getByRole('button', { name: 'Empty bucket' }));
    expect(await screen.findByText(Messages.emptyBucketFailed('disk unavailable'))).toBeTruthy();
  });
});

describe('delete bucket', () => {
  async function openDelete(bucket = 'avatars') {
    await choose(bucket, 'Delete bucket');
    const dialog = screen.getByRole('dialog', { name: Messages.confirmDeleteBucket(bucket) });
    return { dialog, input: within(dialog).getByRole('textbox', { name: `Type ${bucket} to confirm.` }) };
  }

  it('shows the warnings and refuses a name that does not match', async () => {
    const fetchMock = storageService();
    renderStorage(url);
    const { dialog, input } = await openDelete();
    expect(within(dialog).getByText(Messages.cannotRecoverBucket)).toBeTruthy();
    expect(within(dialog).getByText(Messages.bucketDataLost)).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete bucket' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(Messages.valueDoesNotMatch);
    await userEvent.type(input, 'avatar');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete bucket' }));
    expect(within(dialog).getByText(Messages.valueDoesNotMatch)).toBeTruthy();
    await userEvent.type(input, 's');
    expect(within(dialog).queryByText(Messages.valueDoesNotMatch)).toBeNull();
    expect(writes(fetchMock.calls)).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('empties, then deletes the bucket, says so and shows the list without it', async () => {
    const fetchMock = storageService();
    renderStorage(url);
    const { dialog, input } = await openDelete();
    await userEvent.type(input, 'avatars');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete bucket' }));

    expect(await screen.findByText(Messages.bucketDeleted('avatars'))).toBeTruthy();
    expect(writes(fetchMock.calls)).toEqual([`POST ${bucketPath('avatars')}/empty`, `DELETE ${bucketPath('avatars')}`]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(currentPath()).toBe(url);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'avatars' })).toBeNull());
    expect(screen.getByRole('link', { name: 'invoices' })).toBeTruthy();
  });

  it("goes to the buckets page when deleting from the bucket's own page", async () => {
    storageService();
    renderRoutes(
      `${url}/avatars`,
      <>
        <Route path="/project/:ref/storage/buckets/:bucketId" element={<BucketActions bucket={avatars} />} />
        <Route path="/project/:ref/storage/buckets" element={<h1>All buckets</h1>} />
      </>,
    );
    const { dialog, input } = await openDelete();
    await userEvent.type(input, 'avatars');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete bucket' }));
    expect(await screen.findByRole('heading', { name: 'All buckets' })).toBeTruthy();
    expect(currentPath()).toBe(url);
    expect(screen.getByText(Messages.bucketDeleted('avatars'))).toBeTruthy();
  });

  it('stops when emptying fails, and says so', async () => {
    const fetchMock = storageService('owner', { [`POST ${bucketPath('avatars')}/empty`]: fail(500, 'disk unavailable') });
    renderStorage(url);
    const { dialog, input } = await openDelete();
    await userEvent.type(input, 'avatars');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete bucket' }));
    expect(await screen.findByText(Messages.emptyBucketFailed('disk unavailable'))).toBeTruthy();
    expect(writes(fetchMock.calls)).toEqual([`POST ${bucketPath('avatars')}/empty`]);
    expect(screen.getByRole('dialog', { name: Messages.confirmDeleteBucket('avatars') })).toBeTruthy();
  });

  it('says when the delete itself fails', async () => {
    storageService('owner', {
      [`POST ${bucketPath('invoices')}/empty`]: { body: { message: 'Successfully emptied' } },
      [`DELETE ${bucketPath('invoices')}`]: fail(409, 'The bucket is not empty'),
    });
    renderStorage(url);
    const { dialog, input } = await openDelete('invoices');
    await userEvent.type(input, invoices.name);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete bucket' }));
    expect(await screen.findByText(Messages.deleteBucketFailed('The bucket is not empty'))).toBeTruthy();
    expect(currentPath()).toBe(url);
    expect(screen.getByRole('dialog', { name: Messages.confirmDeleteBucket('invoices') })).toBeTruthy();
  });
});
