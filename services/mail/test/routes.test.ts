import { MAIL_MAX_PAGE_SIZE, MailMessages, type MailList, type OrgRole } from '@dash/contracts';
import { asRole, contractValidator, serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { mailRoutes, MailList as MailListSchema, MailMessage as MailMessageSchema } from '@dash/contracts';
import { setupMail, type MailStack } from './helpers';

let stack: MailStack;
const validate = contractValidator();

beforeAll(async () => {
  stack = await setupMail();
  const mail = (subject: string) => ({ from: 'Auth <noreply@mail.localhost>', to: ['u@example.com'], subject, date: new Date('2024-01-02T03:04:05Z'), html: `<p>${subject}</p>`, text: subject, sizeBytes: 10 });
  for (let i = 1; i <= 3; i += 1) await stack.store.add('proj', mail(`m${i}`));
  await stack.store.add('elsewhere', mail('not yours'));
});
afterAll(() => stack.close());

const get = (url: string, headers: Record<string, string>) => stack.app.inject({ method: 'GET', url, headers });

describe('who may read the emails (they hold sign-in links)', () => {
  test.each<[OrgRole, number]>([
    ['owner', 200],
    ['administrator', 200],
    ['developer', 200],
    ['read_only', 403],
  ])('%s: list %i', async (role, status) => {
    const res = await get('/proj/emails', asRole(role, 'proj'));
    expect(res.statusCode).toBe(status);
    if (status === 403) expect(res.json().message).toMatch(/permission/i);
  });

  test('a read-only member may neither open one nor delete them; a non-member, an anonymous caller or a service neither', async () => {
    const [first] = (await stack.store.list('proj', 0, 1)).emails;
    expect((await get(`/proj/emails/${first!.id}`, asRole('read_only', 'proj'))).statusCode).toBe(403);
    expect((await stack.app.inject({ method: 'DELETE', url: '/proj/emails', headers: asRole('read_only', 'proj') })).statusCode).toBe(403);
    // Not a member: the project is not found for them.
    expect((await get('/proj/emails', userHeaders({ other: 'owner' }))).statusCode).toBe(404);
    expect((await get('/proj/emails', {})).statusCode).toBe(401);
    expect((await get('/proj/emails', serviceHeaders())).statusCode).toBe(401);
    expect((await stack.store.list('proj', 0, 10)).total).toBe(3);
  });
});

describe('reading', () => {
  test('list: newest first, paged, only the project’s, as the contract says', async () => {
    const res = await get('/proj/emails?limit=2', asRole('developer', 'proj'));
    const body = res.json<MailList>();
    expect(validate(MailListSchema, body)).toBeNull();
    expect(body.total).toBe(3);
    expect(body.emails.map((e) => e.subject)).toEqual(['m3', 'm2']);
    const next = (await get('/proj/emails?offset=2&limit=2', asRole('developer', 'proj'))).json<MailList>();
    expect(next.emails.map((e) => e.subject)).toEqual(['m1']);
  });

  test('one message with its bodies; another project’s id is a 404', async () => {
    const [newest] = (await stack.store.list('proj', 0, 1)).emails;
    const res = await get(`/proj/emails/${newest!.id}`, asRole('owner', 'proj'));
    expect(res.statusCode).toBe(200);
    expect(validate(MailMessageSchema, res.json())).toBeNull();
    expect(res.json()).toMatchObject({ subject: 'm3', html: '<p>m3</p>', text: 'm3', date: expect.stringMatching(/^2024-01-02T03:04:05/) });
    const [foreign] = (await stack.store.list('elsewhere', 0, 1)).emails;
    const other = await get(`/proj/emails/${foreign!.id}`, asRole('owner', 'proj'));
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(MailMessages.emailNotFound);
  });

  test('client mistakes are 400s with a message, never 500s', async () => {
    for (const url of ['/proj/emails?limit=0', `/proj/emails?limit=${MAIL_MAX_PAGE_SIZE + 1}`, '/proj/emails?offset=-1', '/proj/emails/abc', '/proj/emails/0', '/proj/emails/99999999999']) {
      const res = await get(url, asRole('owner', 'proj'));
      expect([400, 404]).toContain(res.statusCode);
      expect(res.json().message).toEqual(expect.any(String));
    }
  });
});

test('delete all: the project’s emails only, and says how many', async () => {
  const res = await stack.app.inject({ method: 'DELETE', url: mailRoutes.deleteAllMail.url.replace(':ref', 'proj'), headers: asRole('administrator', 'proj') });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ deleted: 3 });
  expect((await stack.store.list('proj', 0, 10)).total).toBe(0);
  expect((await stack.store.list('elsewhere', 0, 10)).total).toBe(1);
});
