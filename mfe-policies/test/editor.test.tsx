import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import { Messages } from '@dash/contracts';
import { PoliciesRoutes } from '../src/PoliciesRoutes';
import { POLICY_SAVED } from '../src/editor/PolicyEditorPanel';
import { PREVIEW_TEMPLATE_REASON } from '../src/templates';
import {
  authConfigReply,
  policiesReply,
  previewReply,
  previewWithCheckReply,
  profileColumnsReply,
  rolesReply,
  schemasReply,
  tablesReply,
} from './fixtures';

const url = '/project/default/auth/policies';
const mount = 'auth';
const badRequest = (message: string) => ({ status: 400, body: { statusCode: 400, error: 'Bad Request', message } });

function answers(overrides: Record<string, MockAnswer> = {}): Record<string, MockAnswer> {
  return {
    ...permissionsAnswer('default', 'owner'),
    'GET /api/pg-meta/default/schemas': { body: schemasReply },
    'GET /api/pg-meta/default/tables': { body: tablesReply },
    'GET /api/pg-meta/default/policies': { body: policiesReply },
    'GET /api/pg-meta/default/roles': { body: rolesReply },
    'GET /api/pg-meta/default/columns': { body: profileColumnsReply },
    'GET /api/platform/projects/default/config/auth': { body: authConfigReply(false) },
    ...overrides,
  };
}

const panel = () => screen.getByRole('dialog', { name: /policy on/ });
const field = (name: string | RegExp) => within(panel()).getByLabelText(name) as HTMLInputElement & HTMLSelectElement & HTMLTextAreaElement;
const button = (name: string) => within(panel()).getByRole('button', { name });
const errors = () => within(panel()).queryAllByRole('alert').map((a) => a.textContent);

/** Opens 'New policy' on a table's card (the write permission must have loaded first). */
async function openNewPolicy(table = 'profiles') {
  const card = await screen.findByRole('region', { name: `Table ${table}` });
  const newPolicy = within(card).getByRole('button', { name: 'New policy' }) as HTMLButtonElement;
  await waitFor(() => expect(newPolicy.disabled).toBe(false));
  await userEvent.click(newPolicy);
  return screen.findByRole('dialog', { name: `New policy on ${table}` });
}

async function openEditPolicy(policyName: string, table = 'profiles') {
  const card = await screen.findByRole('region', { name: `Table ${table}` });
  await userEvent.click(within(card).getByRole('button', { name: `Actions for policy ${policyName}` }));
  const edit = within(card).getByRole('menuitem', { name: 'Edit policy' }) as HTMLButtonElement;
  await waitFor(() => expect(edit.disabled).toBe(false));
  await userEvent.click(edit);
  return screen.findByRole('dialog', { name: `Edit policy on ${table}` });
}

async function fromScratch() {
  await openNewPolicy();
  await userEvent.click(screen.getByRole('button', { name: /Start from scratch/ }));
}

describe('policy editor: selection and templates', () => {
  it('starts a new policy at the selection: from a template or from scratch', async () => {
    mockFetch(answers());
    renderArea(PoliciesRoutes, { mount, url });
    const dialog = await openNewPolicy();
    expect(within(dialog).getByRole('button', { name: /Start from a template/ })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: /Start from scratch/ })).toBeTruthy();
    expect(within(dialog).queryByLabelText('Policy name')).toBeNull();
  });

  it("fills the form's name, command, expressions and roles from the chosen template, replacing what was typed", async () => {
    mockFetch(answers());
    renderArea(PoliciesRoutes, { mount, url });
    await fromScratch();
    await userEvent.type(field('Policy name'), 'typed first');
    await userEvent.selectOptions(field('Operation'), 'SELECT');
    await userEvent.type(field('USING expression'), 'false');

    await userEvent.click(button('Use a template'));
    expect(within(panel()).getAllByRole('listitem')).toHaveLength(8);
    await userEvent.click(within(panel()).getByRole('button', { name: /Delete rows by user_id/ }));
    expect(within(panel()).getByLabelText('Template SQL').textContent).toContain('on "public"."profiles"');
    await userEvent.click(button('Use this template'));

    expect(field('Policy name').value).toBe('Users can delete their own rows');
    expect(field('Operation').value).toBe('DELETE');
    expect(field('USING expression').value).toBe('(select auth.uid()) = user_id');
    expect(within(panel()).queryByLabelText('WITH CHECK expression')).toBeNull();
    await waitFor(() => expect((within(panel()).getByRole('checkbox', { name: 'authenticated' }) as HTMLInputElement).checked).toBe(true));
    expect((within(panel()).getByRole('checkbox', { name: 'anon' }) as HTMLInputElement).checked).toBe(false);
  });

  it('shows the preview-only templates with their SQL but cannot apply them', async () => {
    mockFetch(answers());
    renderArea(PoliciesRoutes, { mount, url });
    await openNewPolicy();
    await userEvent.click(screen.getByRole('button', { name: /Start from a template/ }));
    for (const name of ['Policy with table joins', 'Policy with security definer functions', 'Time to live of 24 hours']) {
      await userEvent.click(within(panel()).getByRole('button', { name: new RegExp(name) }));
      const detail = within(panel()).getByRole('region', { name: `Template ${name}` });
      expect(within(detail).getByLabelText('Template SQL').textContent).toMatch(/create policy/);
      expect(within(detail).getByText(PREVIEW_TEMPLATE_REASON, { selector: 'p' })).toBeTruthy();
      const use = within(detail).getByRole('button', { name: 'Use this template' }) as HTMLButtonElement;
      expect(use.disabled).toBe(true);
      await userEvent.click(use);
      expect(within(panel()).queryByLabelText('Policy name')).toBeNull();
    }
    expect(within(panel()).getByLabelText('Template SQL').textContent).toContain("interval '24 hours'");
  });
});

describe('policy editor: the form', () => {
  it("shows the spec's validation messages for what is missing", async () => {
    mockFetch(answers());
    renderArea(PoliciesRoutes, { mount, url });
    await fromScratch();
    await userEvent.click(button('Review'));
    expect(errors()).toEqual([Messages.policyNameRequired, Messages.policyOperationRequired]);

    await userEvent.type(field('Policy name'), 'p');
    await userEvent.selectOptions(field('Operation'), 'SELECT');
    expect(errors()).toEqual([Messages.policyUsingRequired]);
    await userEvent.selectOptions(field('Operation'), 'DELETE');
    expect(errors()).toEqual([Messages.policyUsingRequired]);
    await userEvent.selectOptions(field('Operation'), 'INSERT');
    expect(errors()).toEqual([Messages.policyCheckRequired]);
    await userEvent.selectOptions(field('Operation'), 'UPDATE');
    expect(errors()).toEqual([Messages.policyUsingOrCheckRequired]);
    await userEvent.type(field('WITH CHECK expression'), 'true');
    expect(errors()).toEqual([]);
    await userEvent.click(button('Review'));
    expect(within(panel()).getByLabelText('SQL to run')).toBeTruthy();
  });

  it('counts the name against 63 and ignores input beyond it', async () => {
    mockFetch(answers());
    renderArea(PoliciesRoutes, { mount, url });
    await fromScratch();
    expect(within(panel()).getByLabelText('Name length').textContent).toBe('0/63');
    await userEvent.type(field('Policy name'), 'abcde');
    expect(within(panel()).getByLabelText('Name length').textContent).toBe('5/63');
    await userEvent.type(field('Policy name'), 'x'.repeat(70));
    expect(field('Policy name').value).toBe(`abcde${'x'.repeat(58)}`);
    expect(within(panel()).getByLabelText('Name length').textContent).toBe('63/63');
  });

  it('shows USING and WITH CHECK only for the operations that use them, and clears what the new operation does not use', async () => {
    mockFetch(answers());
    renderArea(PoliciesRoutes, { mount, url });
    await fromScratch();
    expect(within(panel()).queryByLabelText('USING expression')).toBeNull();
    expect(within(panel()).queryByLabelText('WITH CHECK expression')).toBeNull();

    await userEvent.selectOptions(field('Operation'), 'UPDATE');
    await userEvent.type(field('USING expression'), 'a = 1');
    await userEvent.type(field('WITH CHECK expression'), 'b = 2');

    await userEvent.selectOptions(field('Operation'), 'INSERT');
    expect(within(panel()).queryByLabelText('USING expression')).toBeNull();
    expect(field('WITH CHECK expression').value).toBe('b = 2');

    await userEvent.selectOptions(field('Operation'), 'ALL');
    expect(field('USING expression').value).toBe('');
    expect(field('WITH CHECK expression').value).toBe('b = 2');
    await userEvent.type(field('USING expression'), 'c = 3');

    await userEvent.selectOptions(field('Operation'), 'SELECT');
    expect(within(panel()).queryByLabelText('WITH CHECK expression')).toBeNull();
    expect(field('USING expression').value).toBe('c = 3');
    await userEvent.selectOptions(field('Operation'), 'UPDATE');
    expect(field('WITH CHECK expression').value).toBe('');
    expect(field('USING expression').value).toBe('c = 3');
  });

  it("offers the database's roles without the spec's hidden ones; none chosen means public", async () => {
    mockFetch(answers());
    renderArea(PoliciesRoutes, { mount, url });
    await fromScratch();
    const roles = within(panel()).getByRole('group', { name: 'Target roles' });
    await waitFor(() => expect(within(roles).getAllByRole('checkbox').map((c) => c.closest('label')!.textContent)).toEqual(['anon', 'auditor', 'authenticated', 'editor', 'service_role']));
    expect(roles.textContent).toContain('every role (public)');
  });

  it("says 'Failed to retrieve database roles' when the roles cannot be listed", async () => {
    mockFetch(answers({ 'GET /api/pg-meta/default/roles': { status: 500, body: { statusCode: 500, error: 'x', message: 'connection refused' } } }));
    renderArea(PoliciesRoutes, { mount, url });
    await fromScratch();
    const roles = within(panel()).getByRole('group', { name: 'Target roles' });
    expect(await within(roles).findByText(Messages.rolesLoadFailed)).toBeTruthy();
    expect(within(roles).getByText('connection refused')).toBeTruthy();
  });

  it("asks 'Discard changes' before closing with unsaved changes", async () => {
    mockFetch(answers());
    renderArea(PoliciesRoutes, { mount, url });
    await fromScratch();
    await userEvent.type(field('Policy name'), 'half done');
    await userEvent.click(button('Cancel'));
    const confirm = await screen.findByRole('dialog', { name: Messages.discardChanges });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(field('Policy name').value).toBe('half done');

    await userEvent.click(within(panel()).getByRole('button', { name: 'Close' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: Messages.discardChanges })).getByRole('button', { name: Messages.discardChanges }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes at once when nothing was changed', async () => {
    mockFetch(answers());
    renderArea(PoliciesRoutes, { mount, url });
    await openNewPolicy();
    await userEvent.click(button('Cancel'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('policy editor: review and save', () => {
  it('shows the exact create statement, saves it as PERMISSIVE, toasts, closes and reloads the list', async () => {
    let policiesLoads = 0;
    const fetchMock = mockFetch(
      answers({
        'GET /api/pg-meta/default/policies': () => ({ body: ++policiesLoads === 1 ? policiesReply : [...policiesReply, { ...policiesReply[2]!, id: 30009, name: 'Fresh "one"' }] }),
        'POST /api/pg-meta/default/policies': { status: 200, body: { ...policiesReply[2]!, id: 30009, name: 'Fresh "one"' } },
      }),
    );
    renderArea(PoliciesRoutes, { mount, url });
    await fromScratch();
    await userEvent.type(field('Policy name'), 'Fresh "one"');
    await userEvent.selectOptions(field('Operation'), 'SELECT');
    await userEvent.click(await within(panel()).findByRole('checkbox', { name: 'anon' }));
    await userEvent.click(within(panel()).getByRole('checkbox', { name: 'editor' }));
    await userEvent.type(field('USING expression'), 'owner = (select auth.uid())');
    await userEvent.click(button('Review'));

    expect(within(panel()).getByLabelText('SQL to run').textContent).toBe(
      'create policy "Fresh ""one""" on "public"."profiles" as permissive for select to "anon", "editor" using (owner = (select auth.uid()));',
    );
    await userEvent.click(button('Save policy'));
    expect(await screen.findByText(POLICY_SAVED)).toBeTruthy();
    expect(await fetchMock.bodiesOf('POST /api/pg-meta/default/policies')).toEqual([
      { name: 'Fresh "one"', schema: 'public', table: 'profiles', action: 'PERMISSIVE', command: 'SELECT', definition: 'owner = (select auth.uid())', check: null, roles: ['anon', 'editor'] },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(screen.getByRole('region', { name: 'Table profiles' })).findByText('Fresh "one"')).toBeTruthy();
  });

  it('returns a new policy to the editor with the error when saving fails', async () => {
    mockFetch(answers({ 'POST /api/pg-meta/default/policies': badRequest('policy "Everyone can read rows" for table "profiles" already exists') }));
    renderArea(PoliciesRoutes, { mount, url });
    await openNewPolicy();
    await userEvent.click(screen.getByRole('button', { name: /Start from a template/ }));
    await userEvent.click(button('Use this template'));
    await userEvent.click(button('Review'));
    expect(within(panel()).getByLabelText('SQL to run').textContent).toBe(
      'create policy "Everyone can read rows" on "public"."profiles" as permissive for select to public using (true);',
    );
    await userEvent.click(button('Save policy'));

    expect(await within(panel()).findByText('Failed to save policy: policy "Everyone can read rows" for table "profiles" already exists')).toBeTruthy();
    expect(field('Policy name').value).toBe('Everyone can read rows');
    expect(within(panel()).queryByLabelText('SQL to run')).toBeNull();
  });

  it('opens an existing policy in the editor with its operation fixed, and saves only what changed', async () => {
    const fetchMock = mockFetch(
      answers({ 'PATCH /api/pg-meta/default/policies/30002': { body: { ...policiesReply[1]!, roles: ['authenticated', 'anon'] } } }),
    );
    renderArea(PoliciesRoutes, { mount, url });
    await openEditPolicy('Users insert their own profile');
    expect(field('Policy name').value).toBe('Users insert their own profile');
    expect(field('Operation').disabled).toBe(true);
    expect(field('WITH CHECK expression').value).toBe('(auth.uid() = id)');
    expect(within(panel()).queryByRole('button', { name: 'Use a template' })).toBeNull();

    await userEvent.click(await within(panel()).findByRole('checkbox', { name: 'anon' }));
    await userEvent.click(button('Review'));
    expect(within(panel()).getByLabelText('SQL to run').textContent).toBe(
      'alter policy "Users insert their own profile" on "public"."profiles" to "authenticated", "anon";',
    );
    await userEvent.click(button('Save policy'));
    expect(await screen.findByText(POLICY_SAVED)).toBeTruthy();
    expect(await fetchMock.bodiesOf('PATCH /api/pg-meta/default/policies/30002')).toEqual([{ roles: ['authenticated', 'anon'] }]);
  });

  it('sends a rename and a new expression of an edit, and offers no save when nothing changed', async () => {
    const fetchMock = mockFetch(answers({ 'PATCH /api/pg-meta/default/policies/30003': { body: policiesReply[2] } }));
    renderArea(PoliciesRoutes, { mount, url });
    await openEditPolicy('Profiles are public');
    await userEvent.click(button('Review'));
    expect(within(panel()).getByText('Nothing to save: the policy is unchanged.')).toBeTruthy();
    expect((button('Save policy') as HTMLButtonElement).disabled).toBe(true);

    await userEvent.click(button('Back to editor'));
    await userEvent.clear(field('Policy name'));
    await userEvent.type(field('Policy name'), 'Profiles are readable');
    await userEvent.clear(field('USING expression'));
    await userEvent.type(field('USING expression'), 'visible');
    await userEvent.click(button('Review'));
    expect(within(panel()).getByLabelText('SQL to run').textContent).toBe(
      'alter policy "Profiles are public" on "public"."profiles" using (visible);\nalter policy "Profiles are public" on "public"."profiles" rename to "Profiles are readable";',
    );
    await userEvent.click(button('Save policy'));
    await waitFor(async () => expect(await fetchMock.bodiesOf('PATCH /api/pg-meta/default/policies/30003')).toEqual([{ name: 'Profiles are readable', definition: 'visible' }]));
  });

  it('keeps a failed edit in review with the error', async () => {
    mockFetch(answers({ 'PATCH /api/pg-meta/default/policies/30002': badRequest('role "ghost" does not exist') }));
    renderArea(PoliciesRoutes, { mount, url });
    await openEditPolicy('Users insert their own profile');
    await userEvent.clear(field('Policy name'));
    await userEvent.type(field('Policy name'), 'renamed');
    await userEvent.click(button('Review'));
    await userEvent.click(button('Save policy'));
    expect(await within(panel()).findByText('Failed to save policy: role "ghost" does not exist')).toBeTruthy();
    expect(within(panel()).getByLabelText('SQL to run')).toBeTruthy();
  });
});

describe('policy editor: preview', () => {
  async function toReview(command: 'SELECT' | 'INSERT', expression: string) {
    await fromScratch();
    await userEvent.type(field('Policy name'), 'p');
    await userEvent.selectOptions(field('Operation'), command);
    await userEvent.type(field(command === 'SELECT' ? 'USING expression' : 'WITH CHECK expression'), expression);
    await userEvent.click(button('Review'));
  }

  it('shows how many rows the role would see and the first rows', async () => {
    const fetchMock = mockFetch(answers({ 'POST /api/pg-meta/default/policies/preview': { body: previewReply } }));
    renderArea(PoliciesRoutes, { mount, url });
    await toReview('SELECT', '(select auth.uid()) = user_id');
    const preview = within(panel()).getByRole('region', { name: 'Preview' });
    await waitFor(() => expect(within(preview).getAllByRole('option').map((o) => o.textContent)).toContain('editor'));
    expect(within(preview).getAllByRole('option').map((o) => o.textContent)).not.toContain('postgres');
    await userEvent.selectOptions(within(preview).getByLabelText('Role'), 'authenticated');
    await userEvent.type(within(preview).getByLabelText('User id (optional)'), '6f1c2a4e-0000-4000-8000-000000000001');
    await userEvent.click(within(preview).getByRole('button', { name: 'Preview' }));

    expect((await within(preview).findByRole('status')).textContent).toBe('authenticated (user 6f1c2a4e-0000-4000-8000-000000000001) would see 2 rows.');
    const rows = within(within(preview).getByRole('table', { name: 'Rows the role would see' })).getAllByRole('row');
    expect(rows.map((r) => Array.from(r.children).map((c) => c.textContent))).toEqual([
      ['id', 'user_id', 'name'],
      ['1', '6f1c2a4e-0000-4000-8000-000000000001', 'Ada'],
      ['2', '6f1c2a4e-0000-4000-8000-000000000002', 'NULL'],
    ]);
    expect(await fetchMock.bodiesOf('POST /api/pg-meta/default/policies/preview')).toEqual([
      {
        table_id: 16392,
        name: 'p',
        command: 'SELECT',
        definition: '(select auth.uid()) = user_id',
        check: null,
        roles: [],
        role: { role: 'authenticated', userId: '6f1c2a4e-0000-4000-8000-000000000001' },
      },
    ]);
    expect(within(preview).queryByRole('group', { name: 'Sample row' })).toBeNull();
  });

  it('tries a sample row against WITH CHECK for INSERT and says why it is refused', async () => {
    const fetchMock = mockFetch(answers({ 'POST /api/pg-meta/default/policies/preview': { body: previewWithCheckReply } }));
    renderArea(PoliciesRoutes, { mount, url });
    await toReview('INSERT', '(select auth.uid()) = user_id');
    const preview = within(panel()).getByRole('region', { name: 'Preview' });
    const sample = within(preview).getByRole('group', { name: 'Sample row' });
    await within(sample).findByLabelText('Sample value for name');
    // An identity ALWAYS column cannot be given.
    expect(within(sample).queryByLabelText('Sample value for id')).toBeNull();
    await userEvent.type(within(sample).getByLabelText('Sample value for name'), 'Grace');
    await userEvent.click(within(preview).getByRole('button', { name: 'Preview' }));

    expect(await within(preview).findByText('The sample row is refused: new row violates row-level security policy for table "profiles"')).toBeTruthy();
    const [body] = (await fetchMock.bodiesOf('POST /api/pg-meta/default/policies/preview')) as Record<string, unknown>[];
    expect(body).toMatchObject({ command: 'INSERT', definition: null, check: '(select auth.uid()) = user_id', role: { role: 'anon' }, sample: { name: 'Grace' } });
  });

  it("shows the server's message when the preview fails", async () => {
    mockFetch(answers({ 'POST /api/pg-meta/default/policies/preview': badRequest('column "user_id" does not exist') }));
    renderArea(PoliciesRoutes, { mount, url });
    await toReview('SELECT', 'user_id = 1');
    const preview = within(panel()).getByRole('region', { name: 'Preview' });
    await userEvent.click(within(preview).getByRole('button', { name: 'Preview' }));
    expect((await within(preview).findByRole('alert')).textContent).toBe('Preview failed: column "user_id" does not exist');
  });
});
