import { createConnection } from 'node:net';
import { createTransport } from 'nodemailer';
import { MAIL_CATCHER_SENDER, type MailList, type MailMessage } from '@dash/contracts';
import { mailCatcherPassword, projectMailer, type ProjectMailer } from '@dash/service-kit';
import { asRole, TEST_SECRET } from '@dash/service-kit/dist/testing';
import { fakePlatform, setupMail, type MailStack } from './helpers';

let stack: MailStack;
let platform: Awaited<ReturnType<typeof fakePlatform>>;
let mailer: ProjectMailer;

beforeAll(async () => {
  stack = await setupMail();
  platform = await fakePlatform();
  mailer = projectMailer({ platformUrl: platform.url, secret: TEST_SECRET, caller: 'auth', catcher: { host: '127.0.0.1', port: stack.smtpPort } });
});
afterAll(async () => {
  mailer.close();
  await platform.close();
  await stack.close();
});

const list = async (ref: string) => {
  const res = await stack.app.inject({ method: 'GET', url: `/${ref}/emails`, headers: asRole('owner', ref) });
  expect(res.statusCode).toBe(200);
  return res.json<MailList>();
};

/** A client that speaks to the catcher as `ref` with `pass`, without the mailer. */
const rawClient = (user: string, pass: string) =>
  createTransport({ host: '127.0.0.1', port: stack.smtpPort, ignoreTLS: true, auth: { user, pass }, connectionTimeout: 5_000 });

describe('the kit mailer and the catcher', () => {
  test('a message sent with the mailer is kept for its project and read back whole', async () => {
    const html = '<h2>Confirm your signup</h2><p><a href="http://localhost:3000/verify?token=abc">Confirm your mail</a></p>';
    const sent = await mailer.send('proj-a', { to: 'new.user@example.com', subject: 'Confirm Your Signup', html, text: 'Confirm: http://localhost:3000/verify?token=abc' });
    expect(sent.messageId).toMatch(/^<.+@.+>$/);

    const { emails, total } = await list('proj-a');
    expect(total).toBe(1);
    expect(emails[0]).toMatchObject({ to: ['new.user@example.com'], subject: 'Confirm Your Signup', from: `"${MAIL_CATCHER_SENDER.name}" <${MAIL_CATCHER_SENDER.email}>` });
    const res = await stack.app.inject({ method: 'GET', url: `/proj-a/emails/${emails[0]!.id}`, headers: asRole('developer', 'proj-a') });
    expect(res.statusCode).toBe(200);
    const mail = res.json<MailMessage>();
    expect(mail.html).toContain('<a href="http://localhost:3000/verify?token=abc">Confirm your mail</a>');
    expect(mail.text).toBe('Confirm: http://localhost:3000/verify?token=abc');
    expect(Date.parse(mail.date!)).toBeGreaterThan(Date.now() - 60_000);
    // Another project sees none of it.
    expect((await list('proj-b')).total).toBe(0);
    expect(platform.calls).toContain('proj-a');
  });

  test('the catcher refuses a client that does not log in, or logs in with another project’s password', async () => {
    await expect(createTransport({ host: '127.0.0.1', port: stack.smtpPort, ignoreTLS: true }).sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'x', text: 'x' })).rejects.toMatchObject({
      responseCode: 530,
    });
    await expect(rawClient('proj-a', mailCatcherPassword(TEST_SECRET, 'proj-b')).sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'x', text: 'x' })).rejects.toMatchObject({
      responseCode: 535,
    });
    await expect(rawClient('proj-a', mailCatcherPassword('another-secret', 'proj-a')).verify()).rejects.toMatchObject({ responseCode: 535 });
    await expect(rawClient('../etc', 'guess').verify()).rejects.toMatchObject({ responseCode: 535 });
    expect(await rawClient('proj-c', mailCatcherPassword(TEST_SECRET, 'proj-c')).verify()).toBe(true);
    expect((await list('proj-c')).total).toBe(0);
  });

  test('parsing: a multipart message from any client keeps its From, recipients, subject, date and both bodies', async () => {
    await rawClient('proj-d', mailCatcherPassword(TEST_SECRET, 'proj-d')).sendMail({
      from: '"Ops Team" <ops@example.com>',
      to: ['one@example.com', '"Two" <two@example.com>'],
      subject: 'Grüße — ünïcödé subject',
      date: new Date('2024-05-06T07:08:09Z'),
      text: 'plain body',
      html: '<p>html body</p>',
      attachments: [{ filename: 'a.txt', content: 'attached' }],
    });
    const [summary] = (await list('proj-d')).emails;
    expect(summary).toMatchObject({ from: '"Ops Team" <ops@example.com>', to: ['one@example.com', 'two@example.com'], subject: 'Grüße — ünïcödé subject' });
    const mail = (await stack.app.inject({ method: 'GET', url: `/proj-d/emails/${summary!.id}`, headers: asRole('owner', 'proj-d') })).json<MailMessage>();
    expect(mail).toMatchObject({ html: '<p>html body</p>', text: 'plain body', date: expect.stringMatching(/^2024-05-06T07:08:09/) });
  });

  test('a message over the size limit is refused with 552 and not kept', async () => {
    const small = await setupMail(500, 10_000);
    try {
      const client = createTransport({ host: '127.0.0.1', port: small.smtpPort, ignoreTLS: true, auth: { user: 'proj-e', pass: mailCatcherPassword(TEST_SECRET, 'proj-e') } });
      await expect(client.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'big', text: 'x'.repeat(20_000) })).rejects.toMatchObject({ responseCode: 552 });
      await client.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'small', text: 'fits' });
      const { rows } = await small.pool.query('select subject from mail.messages');
      expect(rows).toEqual([{ subject: 'small' }]);
    } finally {
      await small.close();
    }
  });

  test('hostile input: garbage, overlong lines, abrupt disconnects and DATA without AUTH leave the catcher serving', async () => {
    const talk = (lines: string[], destroyEarly = false) =>
      new Promise<string>((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port: stack.smtpPort });
        let heard = '';
        socket.on('data', (d) => (heard += d.toString()));
        socket.on('error', () => resolve(heard));
        socket.on('close', () => resolve(heard));
        // A client that speaks before the greeting is cut off at once ("talk too soon"): wait for it.
        socket.once('data', () => {
          for (const line of lines) socket.write(line);
          if (destroyEarly) socket.destroy();
          else setTimeout(() => socket.end(), 300);
        });
      });
    const replies = await talk(['EHLO x\r\n', 'MAIL FROM:<a@example.com>\r\n', 'DATA\r\n', 'hello\r\n.\r\n', 'QUIT\r\n']);
    expect(replies).toMatch(/530/);
    await talk(['\u0000\u00ff\u0001 nonsense\r\n'.repeat(20)]);
    await talk(['EHLO ' + 'y'.repeat(100_000) + '\r\n']);
    await talk(['EHLO x\r\nAUTH PLAIN ', '%%%not-base64%%%\r\n']);
    await talk(['EHLO x\r\nAUTH LOGIN\r\n'], true);
    const user = 'proj-f';
    const pass = mailCatcherPassword(TEST_SECRET, user);
    const plain = Buffer.from(`\u0000${user}\u0000${pass}`).toString('base64');
    // Logged in, then cut off in the middle of DATA: nothing is kept and nothing breaks.
    await talk([`EHLO x\r\nAUTH PLAIN ${plain}\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<b@example.com>\r\nDATA\r\n`, 'Subject: half\r\n\r\nbody'], true);
    // Headers only, no body, odd dates: parsed and kept.
    const replies2 = await talk([`EHLO x\r\nAUTH PLAIN ${plain}\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<b@example.com>\r\nDATA\r\n`, 'Date: not a date\r\nFrom: <<<\r\n\r\n.\r\nQUIT\r\n']);
    expect(replies2).toMatch(/250 .*kept/);
    const { emails } = await list(user);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.to).toEqual(['b@example.com']);
    // Still serving: the mailer goes through.
    await mailer.send('proj-f', { to: 'after@example.com', subject: 'after', html: '<p>ok</p>' });
    expect((await list(user)).total).toBe(2);
  });
});

describe('custom SMTP', () => {
  test('with custom SMTP enabled the mailer sends through the project’s server, with its sender and login', async () => {
    // The project's "own" server is a second catcher: it logs the mail in under the custom username.
    const own = await setupMail();
    const custom = await fakePlatform({
      'proj-own': {
        sender: { email: 'hello@acme.test', name: 'Acme' },
        smtp: { host: '127.0.0.1', port: own.smtpPort, user: 'acme-smtp', pass: mailCatcherPassword(TEST_SECRET, 'acme-smtp') },
        max_frequency: 60,
      },
      'proj-bad': {
        sender: { email: 'hello@acme.test', name: 'Acme' },
        smtp: { host: '127.0.0.1', port: own.smtpPort, user: 'acme-smtp', pass: 'wrong' },
        max_frequency: 60,
      },
    });
    const customMailer = projectMailer({ platformUrl: custom.url, secret: TEST_SECRET, caller: 'auth', catcher: { host: '127.0.0.1', port: stack.smtpPort } });
    try {
      await customMailer.send('proj-own', { to: 'user@example.com', subject: 'Magic Link', html: '<p>link</p>' });
      const { rows } = await own.pool.query('select project_ref, sender, subject from mail.messages');
      expect(rows).toEqual([{ project_ref: 'acme-smtp', sender: '"Acme" <hello@acme.test>', subject: 'Magic Link' }]);
      // Nothing reached the default catcher for that project.
      expect((await list('proj-own')).total).toBe(0);
      // A server that refuses the login is the sender's error to handle.
      await expect(customMailer.send('proj-bad', { to: 'user@example.com', subject: 'x', html: 'x' })).rejects.toMatchObject({ responseCode: 535 });
    } finally {
      customMailer.close();
      await custom.close();
      await own.close();
    }
  });
});

describe('retention', () => {
  test('at most N messages per project are kept, the oldest dropped, other projects untouched', async () => {
    const small = await setupMail(3);
    try {
      const mail = (subject: string) => ({ from: 'a@example.com', to: ['b@example.com'], subject, date: null, html: null, text: 'x', sizeBytes: 1 });
      await small.store.add('other', mail('other-1'));
      for (let i = 1; i <= 5; i += 1) await small.store.add('kept', mail(`m${i}`));
      const page = await small.store.list('kept', 0, 10);
      expect(page.total).toBe(3);
      expect(page.emails.map((e) => e.subject)).toEqual(['m5', 'm4', 'm3']);
      expect((await small.store.list('other', 0, 10)).total).toBe(1);
    } finally {
      await small.close();
    }
  });
});
