import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, permissionsAnswer, type MockAnswer } from '@dash/shell-sdk/testing';
import { Messages, type PgPolicy, type PolicyCreate, type PolicyUpdate } from '@dash/contracts';
import { policyNameHash } from '../src/storage-policies/form';
import { bucketsReply, rolesReply, storagePoliciesReply } from './fixtures';
import { renderStorage } from './render';

const url = '/project/default/storage/policies';
const POLICIES = '/api/pg-meta/default/policies';
const fail = (status: number, message: string) => ({ status, body: { statusCode: status, error: 'Error', message } });

/** A pg-meta service that keeps the storage policies, so the list after a write shows it. */
function pgMeta(role: 'owner' | 'read_only' = 'owner', overrides: Record<string, MockAnswer> = {}) {
  let policies: PgPolicy[] = [...storagePoliciesReply];
  let nextId = 32000;
  const byId = (request: Request) => Number(new URL(request.url).pathname.split('/').pop());
  const answers: Record<string, MockAnswer> = {
    ...permissionsAnswer('default', role),
    'GET /api/storage/default/buckets': { body: bucketsReply },
    'GET /api/pg-meta/default/roles': { body: rolesReply },
    [`GET ${POLICIES}`]: () => ({ body: policies }),
    [`POST ${POLICIES}`]: async (request) => {
      const body = (await request.clone().json()) as PolicyCreate;
      const created: PgPolicy = {
        id: nextId++,
        schema: body.schema ?? 'public',
        table: body.table,
        table_id: 17001,
        name: body.name,
        action: 'PERMISSIVE',
        roles: body.roles ?? ['public'],
        command: body.command ?? 'ALL',
        definition: body.definition ?? null,
        check: body.check ?? null,
      };
      policies = [...policies, created];
      return { status: 200, body: created };
    },
    ...overrides,
  };
  for (const policy of storagePoliciesReply) {
    answers[`PATCH ${POLICIES}/${policy.id}`] ??= async (request) => {
      const body = (await request.clone().json()) as PolicyUpdate;
      const updated = { ...policies.find((p) => p.id === byId(request))!, ...body } as PgPolicy;
      policies = policies.map((p) => (p.id === updated.id ? updated : p));
      return { body: updated };
    };
  }
  const remove: MockAnswer = (request) => {
    const gone = policies.find((p) => p.id === byId(request))!;
    policies = policies.filter((p) => p.id !== gone.id);
    return { body: gone };
  };
  for (let id = 31001; id < 32010; id++) answers[`DELETE ${POLICIES}/${id}`] ??= remove;
  return mockFetch(answers);
}

const card = (name: string) => screen.getByRole('region', { name });
const policyNames = (region: HTMLElement) => within(region).queryAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell')[0]!.firstChild!.textContent);
const writes = (calls: Request[]) => calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${new URL(c.url).pathname}`);
const policiesFetches = (calls: Request[]) => calls.filter((c) => c.method === 'GET' && new URL(c.url).pathname === POLICIES).length;

async function newPolicy(cardName: string) {
  const button = within(await screen.findByRole('region', { name: cardName })).getByRole('button', { name: 'New policy' }) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  await userEvent.click(button);
  return screen.getByRole('dialog');
}

async function policyAction(cardName: string, policy: string, action: 'Edit' | 'Delete') {
  const region = await screen.findByRole('region', { name: cardName });
  await userEvent.click(within(region).getByRole('button', { name: `Actions for policy ${policy}` }));
  await userEvent.click(within(within(region).getByRole('menu')).getByRole('menuitem', { name: action }));
}

describe('storage policies page', () => {
  it('shows a card per bucket, then Other policies and Policies, each sorted by name', async () => {
    const fetchMock = pgMeta();
    renderStorage(url);
    await screen.findByRole('region', { name: 'Bucket avatars' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Storage policies');
    expect(screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'))).toEqual(['Bucket avatars', 'Bucket invoices', 'Other policies', 'Policies']);

    expect(within(card('Bucket avatars')).getByText('Public')).toBeTruthy();
    expect(within(card('Bucket invoices')).queryByText('Public')).toBeNull();
    expect(policyNames(card('Bucket avatars'))).toEqual(['Anyone reads avatars', 'Avatar uploads']);
    expect(policyNames(card('Bucket invoices'))).toEqual(['Accountants read invoices', 'Owners update invoices']);
    expect(policyNames(card('Other policies'))).toEqual(['Archive cleanup', 'Either bucket', 'Mentions avatars']);
    expect(policyNames(card('Policies'))).toEqual(['Anyone lists buckets']);
    expect(within(card('Bucket avatars')).getByText('2 policies in the bucket')).toBeTruthy();
    expect(within(card('Policies')).getByText('1 policy under buckets')).toBeTruthy();
    expect(within(card('Policies')).getByText('storage.buckets')).toBeTruthy();

    const [row] = within(card('Bucket invoices')).getAllByRole('row').slice(1);
    const cells = within(row!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(1, 3)).toEqual(['SELECT', 'authenticatedservice_role']);
    expect(within(card('Bucket avatars')).getByRole('link', { name: 'avatars' }).getAttribute('href')).toBe('/project/default/storage/buckets/avatars');

    const listed = fetchMock.calls.filter((c) => new URL(c.url).pathname === POLICIES).map((c) => new URL(c.url).searchParams.get('included_schemas'));
    expect(listed).toEqual(['storage']);
  });

  it('says No policies created yet on a card without policies', async () => {
    pgMeta('owner', { [`GET ${POLICIES}`]: { body: [] } });
    renderStorage(url);
    const avatars = await screen.findByRole('region', { name: 'Bucket avatars' });
    expect(within(avatars).getByText(Messages.noPoliciesYet)).toBeTruthy();
    expect(within(avatars).queryByRole('table')).toBeNull();
    expect(within(avatars).getByText('0 policies in the bucket')).toBeTruthy();
    expect(within(card('Other policies')).getByText(Messages.noPoliciesYet)).toBeTruthy();
  });

  it('asks for a bucket first when the project has none', async () => {
    pgMeta('owner', { 'GET /api/storage/default/buckets': { body: [] } });
    renderStorage(url);
    expect(await screen.findByText(Messages.storagePoliciesNoBuckets)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to buckets' }).getAttribute('href')).toBe('/project/default/storage/buckets');
    expect(screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'))).toEqual(['Other policies', 'Policies']);
    // Without the buckets, every objects policy is an other policy.
    expect(policyNames(card('Other policies'))).toHaveLength(7);
  });

  it('says when the policies cannot be loaded', async () => {
    pgMeta('owner', { [`GET ${POLICIES}`]: fail(500, 'database unreachable') });
    renderStorage(url);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to retrieve storage policies');
    expect(alert.textContent).toContain('database unreachable');
  });

  it('disables New policy, Edit and Delete for members who may not write policies, with the reason', async () => {
    pgMeta('read_only');
    renderStorage(url);
    const avatars = await screen.findByRole('region', { name: 'Bucket avatars' });
    const button = within(avatars).getByRole('button', { name: 'New policy' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await userEvent.hover(button.parentElement!);
    expect(within(avatars).getByRole('tooltip').textContent).toBe(Messages.needPermissionsEditPolicies);
    await userEvent.click(within(avatars).getByRole('button', { name: 'Actions for policy Avatar uploads' }));
    const items = within(within(avatars).getByRole('menu')).getAllByRole('menuitem') as HTMLButtonElement[];
    expect(items.map((i) => [i.textContent, i.disabled])).toEqual([
      ['Edit', true],
      ['Delete', true],
    ]);
  });
});

describe('new policy dialog', () => {
  it('creates one policy per operation of a template, for the bucket', async () => {
    const fetchMock = pgMeta();
    renderStorage(url);
    let dialog = await newPolicy('Bucket avatars');
    expect(dialog.getAttribute('aria-label')).toBe('Adding new policy to avatars');
    await userEvent.click(within(dialog).getByRole('button', { name: /Get started quickly/ }));
    expect(within(dialog).getByText('Select a template to use for your new policy')).toBeTruthy();
    const templates = within(within(dialog).getByRole('list', { name: 'Policy templates' })).getAllByRole('button');
    expect(templates).toHaveLength(5);

    await userEvent.click(templates[1]!);
    expect(templates[1]!.getAttribute('aria-pressed')).toBe('true');
    expect(within(dialog).getByLabelText('Template SQL').textContent).toContain("using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text))");
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use this template' }));

    const name = within(dialog).getByRole('textbox', { name: 'Policy name' }) as HTMLInputElement;
    expect(name.value).toBe('Users manage files in their own uid folder');
    expect((within(dialog).getByRole('textbox', { name: 'Policy definition' }) as HTMLTextAreaElement).value).toBe(
      "bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text)",
    );
    const operations = within(dialog).getByRole('group', { name: 'Allowed operations' });
    expect((within(operations).getAllByRole('checkbox') as HTMLInputElement[]).map((c) => c.checked)).toEqual([true, true, true, true]);
    await userEvent.click(within(operations).getByRole('checkbox', { name: /DELETE/ }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'authenticated' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Review' }));

    dialog = screen.getByRole('dialog', { name: 'Reviewing policies to be created for avatars' });
    const hash = policyNameHash('Users manage files in their own uid folder');
    const items = within(within(dialog).getByRole('list', { name: 'Policies to be created' })).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual([0, 1, 2].map((i) => `Users manage files in their own uid folder ${hash}_${i}`));
    expect(items[1]!.textContent).toContain('for insert\nto "authenticated"\nwith check (bucket_id = \'avatars\' and');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save policies' }));

    expect(await screen.findByText(Messages.policySaved)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const bodies = (await fetchMock.bodiesOf(`POST ${POLICIES}`)) as PolicyCreate[];
    const definition = "bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text)";
    expect(bodies).toEqual([
      { name: `Users manage files in their own uid folder ${hash}_0`, schema: 'storage', table: 'objects', action: 'PERMISSIVE', command: 'SELECT', definition, roles: ['authenticated'] },
      { name: `Users manage files in their own uid folder ${hash}_1`, schema: 'storage', table: 'objects', action: 'PERMISSIVE', command: 'INSERT', check: definition, roles: ['authenticated'] },
      {
        name: `Users manage files in their own uid folder ${hash}_2`,
        schema: 'storage',
        table: 'objects',
        action: 'PERMISSIVE',
        command: 'UPDATE',
        definition,
        check: definition,
        roles: ['authenticated'],
      },
    ]);
    // The new policies parse as the bucket's: they appear in its card.
    await waitFor(() => expect(policyNames(card('Bucket avatars'))).toHaveLength(5));
  });

  it('from scratch: starts with the bucket equality, checks the form, limits the name and reviews the SQL', async () => {
    const fetchMock = pgMeta();
    renderStorage(url);
    const dialog = await newPolicy('Bucket invoices');
    await userEvent.click(within(dialog).getByRole('button', { name: /For full customization/ }));
    const definition = within(dialog).getByRole('textbox', { name: 'Policy definition' }) as HTMLTextAreaElement;
    expect(definition.value).toBe("bucket_id = 'invoices'");

    await userEvent.clear(definition);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Review' }));
    expect(within(dialog).getByText(Messages.storagePolicyNameRequired)).toBeTruthy();
    expect(within(dialog).getByText(Messages.storagePolicyDefinitionRequired)).toBeTruthy();
    expect(within(dialog).getByText(Messages.storagePolicyOperationRequired)).toBeTruthy();

    const name = within(dialog).getByRole('textbox', { name: 'Policy name' }) as HTMLInputElement;
    await userEvent.type(name, 'x'.repeat(55));
    expect(name.value).toHaveLength(50);
    expect(within(dialog).getByLabelText('Name length').textContent).toBe('50/50');
    await userEvent.clear(name);
    await userEvent.type(name, "Staff's files");
    await userEvent.type(definition, "bucket_id = 'invoices' and auth.role() = 'authenticated'");
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /SELECT/ }));
    expect(within(dialog).queryByText(Messages.storagePolicyOperationRequired)).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Review' }));

    const review = screen.getByRole('dialog', { name: 'Reviewing policies to be created for invoices' });
    const [item] = within(within(review).getByRole('list', { name: 'Policies to be created' })).getAllByRole('listitem');
    expect(item!.querySelector('pre')!.textContent).toBe(
      `create policy "Staff's files"\non "storage"."objects"\nas permissive\nfor select\nto public\nusing (bucket_id = 'invoices' and auth.role() = 'authenticated');`,
    );
    // Back to the editor keeps what was typed.
    await userEvent.click(within(review).getByRole('button', { name: 'Back to editor' }));
    expect((within(screen.getByRole('dialog')).getByRole('textbox', { name: 'Policy name' }) as HTMLInputElement).value).toBe("Staff's files");
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Review' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save policy' }));

    expect(await screen.findByText(Messages.policySaved)).toBeTruthy();
    expect(await fetchMock.bodiesOf(`POST ${POLICIES}`)).toEqual([
      {
        name: "Staff's files",
        schema: 'storage',
        table: 'objects',
        action: 'PERMISSIVE',
        command: 'SELECT',
        definition: "bucket_id = 'invoices' and auth.role() = 'authenticated'",
        roles: ['public'],
      },
    ]);
    await waitFor(() => expect(policyNames(card('Bucket invoices'))).toEqual(['Accountants read invoices', 'Owners update invoices', "Staff's files"]));
  });

  it('goes back to the editor with the failure, and leaves no half-made batch behind', async () => {
    let posts = 0;
    const fetchMock = pgMeta('owner', {
      [`POST ${POLICIES}`]: async (request) => {
        posts += 1;
        const body = (await request.clone().json()) as PolicyCreate;
        if (posts === 2) return fail(400, 'syntax error at or near "bucket"');
        return { status: 200, body: { ...storagePoliciesReply[0]!, id: 32100, name: body.name, command: body.command } };
      },
      [`DELETE ${POLICIES}/32100`]: { body: storagePoliciesReply[0] },
    });
    renderStorage(url);
    const dialog = await newPolicy('Bucket avatars');
    await userEvent.click(within(dialog).getByRole('button', { name: /For full customization/ }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Policy name' }), 'Broken');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /SELECT/ }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /INSERT/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Review' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save policies' }));

    const message = 'syntax error at or near "bucket"';
    expect(await screen.findByText(Messages.addPolicyFailed(message))).toBeTruthy();
    const editor = screen.getByRole('dialog', { name: 'Adding new policy to avatars' });
    expect(within(editor).getByText(Messages.createPolicyFailed(message))).toBeTruthy();
    expect((within(editor).getByRole('textbox', { name: 'Policy name' }) as HTMLInputElement).value).toBe('Broken');
    expect(writes(fetchMock.calls)).toEqual([`POST ${POLICIES}`, `POST ${POLICIES}`, `DELETE ${POLICIES}/32100`]);
  });

  it('writes Other policies on storage.objects and Policies on storage.buckets, starting in the editor', async () => {
    const fetchMock = pgMeta();
    renderStorage(url);
    let dialog = await newPolicy('Other policies');
    expect(dialog.getAttribute('aria-label')).toBe('Adding new policy to storage.objects');
    expect((within(dialog).getByRole('textbox', { name: 'Policy definition' }) as HTMLTextAreaElement).value).toBe('');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    dialog = await newPolicy('Policies');
    expect(dialog.getAttribute('aria-label')).toBe('Adding new policy to storage.buckets');
    expect(within(dialog).queryByRole('button', { name: 'Use a template' })).toBeNull();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Policy name' }), 'Signed-in users create buckets');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Policy definition' }), "auth.role() = 'authenticated'");
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /INSERT/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Review' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText(Messages.policySaved)).toBeTruthy();
    expect(await fetchMock.bodiesOf(`POST ${POLICIES}`)).toEqual([
      { name: 'Signed-in users create buckets', schema: 'storage', table: 'buckets', action: 'PERMISSIVE', command: 'INSERT', check: "auth.role() = 'authenticated'", roles: ['public'] },
    ]);
    await waitFor(() => expect(policyNames(card('Policies'))).toEqual(['Anyone lists buckets', 'Signed-in users create buckets']));
  });
});

describe('edit and delete a policy', () => {
  it('edits a policy: its operation fixed, the review shows the statements, saving sends what changed', async () => {
    const fetchMock = pgMeta();
    renderStorage(url);
    await policyAction('Bucket invoices', 'Owners update invoices', 'Edit');
    let dialog = screen.getByRole('dialog', { name: 'Editing policy for invoices' });
    const update = within(dialog).getByRole('checkbox', { name: /UPDATE/ }) as HTMLInputElement;
    expect([update.checked, update.disabled]).toEqual([true, true]);
    expect((within(dialog).getByRole('checkbox', { name: 'authenticated' }) as HTMLInputElement).checked).toBe(true);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Review' }));
    dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('Nothing to save: the policy is unchanged.');
    expect((within(dialog).getByRole('button', { name: 'Save policy' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Back to editor' }));

    const name = within(screen.getByRole('dialog')).getByRole('textbox', { name: 'Policy name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Owners change invoices');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Review' }));
    dialog = screen.getByRole('dialog', { name: 'Reviewing changes to the policy for invoices' });
    expect(within(dialog).getByLabelText('SQL to run').textContent).toBe(
      'alter policy "Owners update invoices" on "storage"."objects"\nrename to "Owners change invoices";',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText(Messages.policySaved)).toBeTruthy();
    expect(await fetchMock.bodiesOf(`PATCH ${POLICIES}/31007`)).toEqual([{ name: 'Owners change invoices' }]);
    await waitFor(() => expect(policyNames(card('Bucket invoices'))).toEqual(['Accountants read invoices', 'Owners change invoices']));
  });

  it('says when an edit fails and goes back to the editor', async () => {
    pgMeta('owner', { [`PATCH ${POLICIES}/31002`]: fail(400, 'column "nme" does not exist') });
    renderStorage(url);
    await policyAction('Bucket avatars', 'Anyone reads avatars', 'Edit');
    const definition = within(screen.getByRole('dialog')).getByRole('textbox', { name: 'Policy definition' });
    await userEvent.clear(definition);
    await userEvent.type(definition, "bucket_id = 'avatars' and nme = 'x'");
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Review' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText(Messages.updatePolicyFailedWith('column "nme" does not exist'))).toBeTruthy();
    const editor = screen.getByRole('dialog', { name: 'Editing policy for avatars' });
    expect(within(editor).getByText(Messages.updatePolicyFailed)).toBeTruthy();
  });

  it('deletes a policy after the confirmation', async () => {
    const fetchMock = pgMeta();
    renderStorage(url);
    await policyAction('Other policies', 'Either bucket', 'Delete');
    let confirm = screen.getByRole('dialog', { name: Messages.confirmDeletePolicy });
    expect(confirm.textContent).toContain('This is permanent');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(writes(fetchMock.calls)).toEqual([]);

    await policyAction('Other policies', 'Either bucket', 'Delete');
    confirm = screen.getByRole('dialog', { name: Messages.confirmDeletePolicy });
    const before = policiesFetches(fetchMock.calls);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(Messages.policyDeleted)).toBeTruthy();
    expect(writes(fetchMock.calls)).toEqual([`DELETE ${POLICIES}/31004`]);
    await waitFor(() => expect(policyNames(card('Other policies'))).toEqual(['Archive cleanup', 'Mentions avatars']));
    expect(policiesFetches(fetchMock.calls)).toBe(before + 1);
  });

  it('says when a delete fails', async () => {
    pgMeta('owner', { [`DELETE ${POLICIES}/31006`]: fail(500, 'lock timeout') });
    renderStorage(url);
    await policyAction('Policies', 'Anyone lists buckets', 'Delete');
    await userEvent.click(within(screen.getByRole('dialog', { name: Messages.confirmDeletePolicy })).getByRole('button', { name: 'Delete' }));
    const toast = await screen.findByText(Messages.deletePolicyFailed);
    expect(toast.parentElement!.textContent).toContain('lock timeout');
    expect(policyNames(card('Policies'))).toEqual(['Anyone lists buckets']);
  });
});
