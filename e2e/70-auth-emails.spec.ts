import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { projectMailer } from '../services/kit/dist/mailer';
import { E2E_DATA_DIR, E2E_PORT, REF, ROOT, screenshot, signIn } from './stack';

// Auth mail on one machine: a message sent with the kit's mailer (as the auth service sends) reaches the
// stack's mail catcher and is read on Authentication → Emails, its HTML in a sandbox that runs no script;
// the SMTP settings saved in Settings → Authentication come back after a reload, the password never.

const toast = (page: Page, text: string | RegExp) => page.locator('.dash-toast').filter({ hasText: text });
const smtpUrl = `/api/platform/projects/${REF}/config/auth/smtp`;

test('a mailed confirmation lands on the Emails page and opens sandboxed', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  expect((await page.request.delete(`/api/mail/${REF}/emails`)).ok()).toBe(true);

  const { internalSecret } = JSON.parse(readFileSync(path.join(ROOT, E2E_DATA_DIR, 'secrets.json'), 'utf8')) as { internalSecret: string };
  const mailer = projectMailer({ platformUrl: `http://127.0.0.1:${E2E_PORT + 11}`, secret: internalSecret, caller: 'e2e', catcher: { host: '127.0.0.1', port: E2E_PORT + 19 } });
  const subject = `Confirm Your Signup ${Date.now()}`;
  try {
    await mailer.send(REF, {
      to: 'newcomer@example.com',
      subject,
      html: '<h2>Confirm your signup</h2><p id="marker">static</p><p><a href="http://localhost:3000/verify?token=e2e">Confirm your mail</a></p><script>document.getElementById("marker").textContent = "script ran"</script>',
      text: 'Confirm your mail: http://localhost:3000/verify?token=e2e',
    });
  } finally {
    mailer.close();
  }

  await page.goto(`/project/${REF}/auth/emails`);
  await expect(page.getByRole('link', { name: 'Emails' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Emails' });
  const row = table.getByRole('row').filter({ hasText: subject });
  await expect(row).toContainText('newcomer@example.com');
  await row.getByRole('button', { name: subject }).click();
  const reader = page.getByRole('article', { name: `Email: ${subject}` });
  await expect(reader).toContainText('noreply@mail.localhost');
  await expect(reader.getByTitle('Email content')).toHaveAttribute('sandbox', '');
  const frame = reader.frameLocator('iframe[title="Email content"]');
  await expect(frame.getByRole('link', { name: 'Confirm your mail' })).toHaveAttribute('href', 'http://localhost:3000/verify?token=e2e');
  await expect(frame.locator('#marker')).toHaveText('static');
  await screenshot(page, '70-auth-emails');
});

test('a read-only member may not read the project’s emails', async ({ page }) => {
  await signIn(page, 'viewer@example.com');
  const response = await page.request.get(`/api/mail/${REF}/emails`);
  expect(response.status()).toBe(403);
  await page.goto(`/project/${REF}/auth/users`);
  await expect(page.getByRole('link', { name: 'Users' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Emails' })).toHaveCount(0);
});

test('SMTP settings saved in Settings → Authentication are kept, the password never shown', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const before = await (await page.request.get(smtpUrl)).json();
  try {
    await page.goto(`/project/${REF}/settings/auth`);
    const form = page.getByRole('form', { name: 'SMTP settings' });
    await form.getByLabel('Enable custom SMTP').check();
    await form.getByLabel('Sender email').fill('noreply@acme.test');
    await form.getByLabel('Sender name').fill('Acme');
    await form.getByLabel('Host').fill('smtp.acme.test');
    await form.getByLabel('Port').fill('465');
    await form.getByLabel('Username').fill('mailer');
    await form.getByRole('button', { name: 'Save SMTP settings' }).click();
    await expect(form.getByText('Please provide the SMTP password')).toBeVisible();
    await form.getByLabel('Password').fill('e2e-smtp-secret');
    await form.getByRole('button', { name: 'Save SMTP settings' }).click();
    await expect(toast(page, 'SMTP settings saved')).toBeVisible();

    await page.reload();
    await expect(form.getByLabel('Enable custom SMTP')).toBeChecked();
    await expect(form.getByLabel('Host')).toHaveValue('smtp.acme.test');
    await expect(form.getByLabel('Port')).toHaveValue('465');
    await expect(form.getByLabel('Sender email')).toHaveValue('noreply@acme.test');
    await expect(form.getByLabel('Password')).toHaveValue('');
    await expect(form.getByText('Leave blank to keep the current password')).toBeVisible();
    const stored = await (await page.request.get(smtpUrl)).json();
    expect(stored).toMatchObject({ smtp_enabled: true, smtp_host: 'smtp.acme.test', smtp_pass_set: true });
    expect(JSON.stringify(stored)).not.toContain('e2e-smtp-secret');
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, '70-auth-smtp-settings');
  } finally {
    // Back to the catcher, so other specs' auth mail keeps landing on the Emails page.
    const { smtp_pass_set: _set, ...form } = before as Record<string, unknown>;
    await page.request.put(smtpUrl, { data: { ...form, smtp_enabled: false } });
  }
});
