import { expect, test, type Page } from '@playwright/test';
import { createUser, REF, screenshot, signIn } from './stack';

// Every account, organization and project-settings route of the shell spec's §2 opens its own page
// (never "Page not found"), and each menu shows an item only to the roles whose permissions it needs.

const ORG = 'demo';

/** Route → the page's heading, as the owner of the hosted demo organization sees it. */
const ROUTES: Array<[string, string]> = [
  ['/projects', 'Projects'],
  ['/support/new', 'Submit a support request'],
  ['/account/me', 'Preferences'],
  ['/account/tokens', 'Access Tokens'],
  ['/account/security', 'Security'],
  ['/account/audit', 'Audit logs'],
  [`/org/${ORG}/general`, 'General'],
  [`/org/${ORG}/team`, 'Team'],
  [`/org/${ORG}/integrations`, 'Integrations'],
  [`/org/${ORG}/billing`, 'Billing'],
  [`/org/${ORG}/usage`, 'Usage'],
  [`/org/${ORG}/invoices`, 'Invoices'],
  [`/org/${ORG}/apps`, 'OAuth Apps'],
  [`/org/${ORG}/audit`, 'Audit'],
  [`/org/${ORG}/documents`, 'Legal Documents'],
  [`/project/${REF}/settings/general`, 'General'],
  [`/project/${REF}/settings/infrastructure`, 'Infrastructure'],
  [`/project/${REF}/settings/integrations`, 'Integrations'],
  [`/project/${REF}/settings/addons`, 'Add-ons'],
  [`/project/${REF}/settings/vault/secrets`, 'Vault'],
  [`/project/${REF}/settings/database`, 'Database settings'],
  [`/project/${REF}/settings/api`, 'API settings'],
  [`/project/${REF}/settings/auth`, 'Auth settings'],
  [`/project/${REF}/settings/storage`, 'Storage settings'],
  [`/project/${REF}/settings/functions`, 'Edge Functions'],
];

async function expectPage(page: Page, route: string, heading: string): Promise<void> {
  await page.goto(route);
  await expect(page.getByRole('heading', { level: 1, name: heading, exact: true }), route).toBeVisible();
  expect(new URL(page.url()).pathname, route).toBe(route);
  await expect(page.getByText('Page not found'), route).toHaveCount(0);
  await expect(page.getByText('Something went wrong'), route).toHaveCount(0);
}

test('every account, organization and project settings route opens its own page', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  for (const [route, heading] of ROUTES) await expectPage(page, route, heading);

  // The tab says where the user is.
  await page.goto('/account/tokens');
  await expect(page).toHaveTitle('Access Tokens | Account | Dashboard');
  await page.goto(`/org/${ORG}/team`);
  await expect(page).toHaveTitle('Team | Demo organization | Dashboard');

  // An unknown path still says so, inside each section and at the top.
  await page.goto(`/org/${ORG}/no-such-page`);
  await expect(page.getByText('Page not found')).toBeVisible();
  await page.goto('/no-such-page');
  await expect(page.getByText('Page not found')).toBeVisible();
});

const settingsMenu = (page: Page) => page.getByRole('complementary', { name: 'Project Settings menu' });
const orgMenu = (page: Page) => page.getByRole('complementary', { name: 'Demo organization menu' });
const labels = async (menu: ReturnType<Page['getByRole']>) => (await menu.getByRole('link').allInnerTexts()).map((text) => text.trim());

test('each role sees the menu items its permissions allow, and the service agrees', async ({ browser }) => {
  await createUser('routes-dev@example.com', 'Routes Developer', 'developer');
  // Every role holds the project_auth, project_storage and project_edge_function all-permissions (the
  // settings items they gate); only owners and administrators hold billing-invoices (the Invoices item).
  const expected: Record<string, { invoices: boolean }> = {
    'owner@example.com': { invoices: true },
    'routes-dev@example.com': { invoices: false },
    'viewer@example.com': { invoices: false },
  };

  for (const [email, sees] of Object.entries(expected)) {
    const context = await browser.newContext();
    const member = await context.newPage();
    await signIn(member, email);
    const who = email.split('@')[0];

    await member.goto(`/project/${REF}/settings/general`);
    await expect(settingsMenu(member).getByRole('link', { name: 'General' })).toBeVisible();
    const items = await labels(settingsMenu(member));
    for (const item of ['General', 'Infrastructure', 'Integrations', 'Add Ons', 'Vault', 'Database', 'API', 'Authentication', 'Storage', 'Edge Functions', 'Subscription', 'Usage']) {
      expect(items.some((label) => label.startsWith(item)), `${email} sees settings › ${item}`).toBe(true);
    }
    await screenshot(member, `15-settings-menu-${who}`);

    await member.goto(`/org/${ORG}/general`);
    await expect(orgMenu(member).getByRole('link', { name: 'General' })).toBeVisible();
    expect((await labels(orgMenu(member))).includes('Invoices'), `${email} sees Invoices`).toBe(sees.invoices);

    // Typing the address does not get round the menu: the page says why, and the service refuses.
    const invoices = await member.request.get(`/api/platform/organizations/${ORG}/invoices`);
    expect(invoices.status(), `${email} reads invoices`).toBe(sees.invoices ? 200 : 403);
    if (!sees.invoices) {
      await member.goto(`/org/${ORG}/invoices`);
      await expect(member.getByText('You need additional permissions')).toBeVisible();
      await screenshot(member, `15-invoices-denied-${who}`);
    }
    await context.close();
  }
});
