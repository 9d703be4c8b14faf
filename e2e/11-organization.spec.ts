import { expect, test } from '@playwright/test';
import { REF, screenshot, signIn } from './stack';

// The organization pages: invite a member, accept in another browser, change the role, and find each
// step in the audit log (with a bucket change the storage service reported).

const NEWBIE = 'newbie@example.com';

test('invite a member, accept in another browser, change the role, and see it in the audit log', async ({ page, browser }) => {
  await signIn(page, 'owner@example.com');
  await page.getByRole('navigation', { name: 'Organizations' }).getByRole('link', { name: /Demo organization/ }).click();
  await expect(page).toHaveURL(/\/org\/demo\/general$/);
  await expect(page.getByLabel('Organization name')).toHaveValue('Demo organization');
  await screenshot(page, '11-general');

  // Invite: the accept link is shown once.
  await page.getByRole('complementary', { name: 'Demo organization menu' }).getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText('owner@example.com');
  await page.getByRole('button', { name: 'Invite member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a member to Demo organization' });
  await invite.getByLabel('Email address').fill(NEWBIE);
  await invite.getByLabel('Role').selectOption('developer');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  const created = page.getByRole('dialog', { name: 'Invitation created' });
  const link = (await created.getByLabel('Invitation link', { exact: true }).textContent())!;
  expect(link).toMatch(/\/join\?token=[A-Za-z0-9_-]+$/);
  await screenshot(page, '11-invite-link');
  await created.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('table', { name: 'Pending invitations' })).toContainText(NEWBIE);

  // Accept in another browser context: no account yet, so a name and a password.
  const other = await browser.newContext();
  const newbie = await other.newPage();
  await newbie.goto(link);
  await expect(newbie.getByRole('heading', { name: 'Join Demo organization' })).toBeVisible();
  await expect(newbie.getByText('as Developer')).toBeVisible();
  await newbie.getByLabel('Your name').fill('Nia Newbie');
  await newbie.getByLabel('Password', { exact: true }).fill('a long enough password');
  await newbie.getByLabel('Confirm password').fill('a long enough password');
  await screenshot(newbie, '11-join');
  await newbie.getByRole('button', { name: 'Create account and join' }).click();
  await expect(newbie).toHaveURL(/\/org\/demo\/general$/);
  await expect(newbie.getByText('You joined Demo organization')).toBeVisible();
  // Signed in, and a member of the organization's project.
  await newbie.goto('/projects');
  await expect(newbie.getByRole('list', { name: 'Projects' })).toContainText('Default project');
  // The link is used up.
  await newbie.goto(link);
  await expect(newbie.getByText('This invitation is invalid or has expired. Ask for a new one.')).toBeVisible();

  // The owner sees the new member and changes the role.
  await page.reload();
  const members = page.getByRole('table', { name: 'Members' });
  await expect(members).toContainText(NEWBIE);
  await expect(page.getByText('No pending invitations')).toBeVisible();
  await members.getByLabel(`Role of ${NEWBIE}`).selectOption('read_only');
  await expect(page.getByText(`${NEWBIE} is now Read-only`)).toBeVisible();
  await screenshot(page, '11-team');

  // A change another service makes: a bucket, created through the storage service.
  const bucket = await page.request.post(`/api/storage/${REF}/buckets`, { data: { id: 'audit-e2e', public: false } });
  expect(bucket.status()).toBe(201);

  // Every step is in the audit log, newest first.
  await page.getByRole('complementary', { name: 'Demo organization menu' }).getByRole('link', { name: 'Audit' }).click();
  const log = page.getByRole('table', { name: 'Audit log' });
  // Earlier specs create buckets too; this one is found by its name.
  await expect(log.getByRole('row').filter({ hasText: 'Created a bucket' }).filter({ hasText: 'audit-e2e' })).toHaveCount(1);
  const roleChange = log.getByRole('row').filter({ hasText: 'Changed a role' }).filter({ hasText: NEWBIE });
  await expect(roleChange).toContainText('owner@example.com');
  await expect(roleChange).toContainText('from: Developer · to: Read-only');
  await expect(log.getByRole('row').filter({ hasText: 'Joined the organization' })).toContainText(NEWBIE);
  await expect(log.getByRole('row').filter({ hasText: 'Invited a member' })).toContainText(NEWBIE);
  await screenshot(page, '11-audit');

  // The new member, now Read-only, sees the role and no audit log.
  await newbie.goto('/org/demo/general');
  await expect(newbie.getByText('Read-only', { exact: true })).toBeVisible();
  await newbie.goto('/org/demo/audit');
  await expect(newbie.getByText('You need additional permissions')).toBeVisible();
  await screenshot(newbie, '11-readonly-audit');
  await other.close();

  await page.request.delete(`/api/storage/${REF}/buckets/audit-e2e`);
});

test('billing, usage, invoices and OAuth apps of the hosted organization', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto('/org/demo/usage');
  const usage = page.getByRole('region', { name: 'Usage of Default project' });
  await expect(usage).toContainText('Database size');
  await expect(usage).toContainText('of 8 GB included');
  await screenshot(page, '11-usage');

  await page.goto('/org/demo/billing');
  await expect(page.getByRole('table', { name: 'Projects and plans' })).toContainText('Default project');
  await screenshot(page, '11-billing');

  await page.goto('/org/demo/invoices');
  const statement = page.getByRole('region', { name: /Statement for/ }).first();
  await expect(statement).toContainText('Upcoming');
  await expect(statement).toContainText('Pro plan');
  await screenshot(page, '11-invoices');

  await page.goto('/org/demo/apps');
  await page.getByRole('button', { name: 'Add application' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an OAuth application' });
  await dialog.getByLabel('Application name').fill('Partner portal');
  await dialog.getByLabel('Redirect URIs').fill('https://portal.example.com/callback\nhttp://localhost:3000/callback');
  await dialog.getByRole('button', { name: 'Register application' }).click();
  const registered = page.getByRole('dialog', { name: 'Partner portal is registered' });
  await expect(registered.getByLabel('Client secret', { exact: true })).toContainText('dash_secret_');
  await screenshot(page, '11-oauth-secret');
  await registered.getByRole('button', { name: 'Done' }).click();
  const apps = page.getByRole('table', { name: 'OAuth apps' });
  await expect(apps).toContainText('Partner portal');
  await expect(apps).not.toContainText('dash_secret_');
  await screenshot(page, '11-oauth-apps');

  // A Read-only member has no invoices item, and the service refuses the route.
  const viewer = await page.context().browser()!.newContext();
  const viewerPage = await viewer.newPage();
  await signIn(viewerPage, 'viewer@example.com');
  await viewerPage.goto('/org/demo/general');
  const menu = viewerPage.getByRole('complementary', { name: 'Demo organization menu' });
  await expect(menu.getByRole('link', { name: 'Usage' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Invoices' })).toHaveCount(0);
  expect((await viewerPage.request.get('/api/platform/organizations/demo/invoices')).status()).toBe(403);
  await viewer.close();
});
