import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { Messages, type Bucket } from '@dash/contracts';
import { StorageRoutes } from '../src/StorageRoutes';
import { bucketsReply, createdBucket } from './fixtures';
import { currentPath, renderRoutes, renderStorage } from './render';
import { Route } from 'react-router-dom';

const url = '/project/default/storage/buckets';
const BUCKETS = 'GET /api/storage/default/buckets';
const CREATE = 'POST /api/storage/default/buckets';

function answers(role: 'owner' | 'read_only', overrides: Record<string, MockAnswer> = {}): Record<string, MockAnswer> {
  return { ...permissionsAnswer('default', role), [BUCKETS]: { body: bucketsReply }, ...overrides };
}

/** A storage service that keeps what is created, so the list after creation has the new bucket. */
function statefulBuckets(initial: Bucket[]): Record<string, MockAnswer> {
  const buckets = [...initial];
  return {
    [BUCKETS]: () => ({ body: buckets }),
    [CREATE]: async (request) => {
      const body = (await request.clone().json()) as { id: string; public: boolean; file_size_limit: number | null; allowed_mime_types: string[] | null };
      const bucket = createdBucket(body.id, body);
      buckets.push(bucket);
      return { status: 201, body: bucket };
    },
  };
}

async function openCreateDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'New bucket' }));
  return screen.getByRole('dialog', { name: 'Create storage bucket' });
}

describe('buckets page', () => {
  it('lists the buckets with access, size limit, MIME types and creation date', async () => {
    mockFetch(answers('owner'));
    renderArea(StorageRoutes, { mount: 'storage', url });
    const table = await screen.findByRole('table', { name: 'Buckets' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['avatars', 'invoices']);

    const [avatars, invoices] = rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(avatars.slice(1, 4)).toEqual(['Public', '2 MB', 'image/*application/pdf']);
    expect(invoices.slice(1, 4)).toEqual(['Private', 'Project limit', 'Any']);
    expect(avatars[4]).toBe('Nov 20, 2026');
    expect(within(rows[0]).getByRole('link', { name: 'avatars' }).getAttribute('href')).toBe('/project/default/storage/buckets/avatars');
  });

  it('goes from /storage to the buckets page', async () => {
    mockFetch(answers('owner'));
    renderArea(StorageRoutes, { mount: 'storage', url: '/project/default/storage' });
    expect(await screen.findByRole('table', { name: 'Buckets' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Buckets');
  });

  it('sends unknown storage paths to the buckets page', async () => {
    mockFetch(answers('owner'));
    renderArea(StorageRoutes, { mount: 'storage', url: '/project/default/storage/nope/deeper' });
    expect(await screen.findByRole('table', { name: 'Buckets' })).toBeTruthy();
  });

  it('says No buckets available when the project has none', async () => {
    mockFetch(answers('owner', { [BUCKETS]: { body: [] } }));
    renderArea(StorageRoutes, { mount: 'storage', url });
    expect(await screen.findByText(Messages.noBuckets)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('button', { name: 'New bucket' })).toBeTruthy();
  });

  it('says Failed to fetch buckets, with the refresh hint, when the list fails', async () => {
    mockFetch(answers('owner', { [BUCKETS]: { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'storage is down' } } }));
    renderArea(StorageRoutes, { mount: 'storage', url });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(Messages.fetchBucketsFailed)).toBeTruthy();
    expect(within(alert).getByText(Messages.refreshToTryAgain)).toBeTruthy();
  });

  it('explains preview branches when the failure mentions the tenant config', async () => {
    mockFetch(
      answers('owner', {
        [BUCKETS]: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'Missing tenant config for preview branch' } },
      }),
    );
    renderArea(StorageRoutes, { mount: 'storage', url });
    expect(await screen.findByText(Messages.storageNotOnPreviewBranches)).toBeTruthy();
    expect(screen.getByText(Messages.fetchBucketsFailed)).toBeTruthy();
    expect(screen.queryByText(Messages.refreshToTryAgain)).toBeNull();
  });

  it('shows New bucket disabled for read-only members, with the reason on hover', async () => {
    mockFetch(answers('read_only'));
    renderArea(StorageRoutes, { mount: 'storage', url });
    await screen.findByRole('table', { name: 'Buckets' });
    const button = screen.getByRole('button', { name: 'New bucket' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.getByRole('tooltip', { hidden: true }).hidden).toBe(true);
    await userEvent.hover(button.parentElement!);
    expect(screen.getByRole('tooltip').textContent).toBe(Messages.needPermissionsCreateBuckets);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('create bucket', () => {
  it('shows the validation messages and sends nothing while the form is invalid', async () => {
    const fetchMock = mockFetch(answers('owner'));
    renderArea(StorageRoutes, { mount: 'storage', url });
    const dialog = await openCreateDialog();
    const name = within(dialog).getByRole('textbox', { name: 'Name of bucket' });
    const submit = within(dialog).getByRole('button', { name: 'Create bucket' });
    expect(within(dialog).getByText('Only lowercase letters, numbers, dots, and hyphens')).toBeTruthy();

    await userEvent.click(submit);
    expect(within(dialog).getByText(Messages.bucketNameRequired)).toBeTruthy();

    await userEvent.type(name, 'photos ');
    expect(within(dialog).getByText(Messages.bucketNameTrailingWhitespace)).toBeTruthy();

    await userEvent.clear(name);
    await userEvent.type(name, 'public');
    expect(within(dialog).getByText(Messages.bucketNameReserved)).toBeTruthy();

    await userEvent.clear(name);
    await userEvent.type(name, 'photos');
    await userEvent.click(within(dialog).getByRole('switch', { name: /Restrict file upload size/ }));
    await userEvent.click(submit);
    expect(within(dialog).getByText(Messages.bucketSizeLimitMin)).toBeTruthy();

    const size = within(dialog).getByRole('textbox', { name: 'File size limit' }) as HTMLInputElement;
    await userEvent.type(size, '-1.5e2x');
    expect(size.value).toBe('152');
    expect(within(dialog).queryByText(Messages.bucketSizeLimitMin)).toBeNull();
    expect(fetchMock.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('posts the bucket (2 MB → 2097152 bytes, MIME list split and trimmed), then opens its page', async () => {
    const fetchMock = mockFetch({ ...permissionsAnswer('default', 'owner'), ...statefulBuckets(bucketsReply) });
    renderStorage(url);
    const dialog = await openCreateDialog();

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name of bucket' }), 'user-uploads');
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Public bucket' }));
    await userEvent.click(within(dialog).getByRole('switch', { name: /Restrict file upload size/ }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'File size limit' }), '2');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'File size limit unit' }), 'MB');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Allowed MIME types' }), ' image/* , application/pdf,, ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create bucket' }));

    expect(await screen.findByText('Successfully created bucket user-uploads')).toBeTruthy();
    expect(await fetchMock.bodiesOf(CREATE)).toEqual([
      { id: 'user-uploads', public: true, file_size_limit: 2097152, allowed_mime_types: ['image/*', 'application/pdf'] },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(currentPath()).toBe('/project/default/storage/buckets/user-uploads'));
  });

  it('sends null limits when the size limit is off and the MIME list is blank', async () => {
    const fetchMock = mockFetch({ ...permissionsAnswer('default', 'owner'), ...statefulBuckets([]) });
    renderStorage(url);
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name of bucket' }), 'docs');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create bucket' }));
    await waitFor(async () => expect(await fetchMock.bodiesOf(CREATE)).toHaveLength(1));
    expect(await fetchMock.bodiesOf(CREATE)).toEqual([{ id: 'docs', public: false, file_size_limit: null, allowed_mime_types: null }]);
    await waitFor(() => expect(currentPath()).toBe('/project/default/storage/buckets/docs'));
  });

  it('keeps the dialog open and shows the failure when creation fails', async () => {
    mockFetch(
      answers('owner', {
        [CREATE]: { status: 409, body: { statusCode: 409, error: 'Conflict', message: 'The resource already exists' } },
      }),
    );
    renderArea(StorageRoutes, { mount: 'storage', url });
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name of bucket' }), 'avatars');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create bucket' }));
    expect(await screen.findByText(Messages.createBucketFailed('The resource already exists'))).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Create storage bucket' })).toBeTruthy();
  });
});

describe('storage area', () => {
  it('sends the old settings address to the project settings, where the storage settings now live', async () => {
    mockFetch(answers('owner'));
    renderRoutes("/project/default/storage/settings", <Route path="/project/:ref/storage/*" element={<StorageRoutes />} />);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/project/default/settings/storage'));
  });
});
