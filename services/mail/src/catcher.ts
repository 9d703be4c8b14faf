import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { MAIL_MAX_MESSAGE_BYTES, RefParams } from '@dash/contracts';
import { mailCatcherPassword } from '@dash/service-kit';
import type { CaughtMail, MailStore } from './store';

export interface CatcherOptions {
  /** DASH_INTERNAL_SECRET: each project's password derives from it (`mailCatcherPassword`). */
  secret: string;
  store: MailStore;
  /** Where problems of the listener go (never thrown: nothing a client sends may stop the process). */
  log: { warn(details: object, message: string): void };
  maxBytes?: number;
}

/** An SMTP error with its reply code (smtp-server sends `responseCode` and the message). */
function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

const REF = new RegExp(RefParams.properties.ref.pattern!);
const MAX_RECIPIENTS = 50;

/** The project a session logged in as (AUTH is required before MAIL FROM, so it is set in onData). */
function refOf(session: SMTPServerSession): string {
  return String(session.user);
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  const flat = objects.flatMap((o) => o.value.flatMap((a) => (a.group ? a.group : [a])));
  return flat.map((a) => a.address ?? '').filter((a) => a !== '');
}

/** Reads the DATA stream whole (the server stops counting past `size`; then the caller refuses it). */
function readAll(stream: SMTPServerDataStream, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    stream.on('data', (chunk: Buffer) => {
      // Past the limit the bytes are drained, not kept: the message is refused anyway.
      if (kept <= maxBytes) chunks.push(chunk);
      kept += chunk.length;
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

async function parse(source: Buffer, session: SMTPServerSession): Promise<CaughtMail> {
  const parsed = await simpleParser(source, { skipImageLinks: true, skipTextLinks: true });
  const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
  const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  const date = parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date : null;
  const to = addresses(parsed.to);
  return {
    from: parsed.from?.text || envelopeFrom,
    to: to.length > 0 ? to : envelopeTo,
    subject: parsed.subject ?? '',
    date,
    html: typeof parsed.html === 'string' ? parsed.html : null,
    text: parsed.text ?? null,
    sizeBytes: source.length,
  };
}

/**
 * The mail catcher: an SMTP server that requires AUTH (user = project ref, password derived from the
 * internal secret), refuses messages over the size limit, and keeps each message it accepts for the
 * project it logged in as. Plain text on loopback only (the caller binds it to 127.0.0.1).
 */
export function createCatcher(options: CatcherOptions): SMTPServer {
  const maxBytes = options.maxBytes ?? MAIL_MAX_MESSAGE_BYTES;
  const server = new SMTPServer({
    name: 'mail-catcher',
    banner: 'project mail catcher',
    logger: false,
    disabledCommands: ['STARTTLS'],
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    size: maxBytes,
    rejectOversized: true,
    maxRecipients: MAX_RECIPIENTS,
    maxClients: 100,
    socketTimeout: 30_000,
    closeTimeout: 5_000,
    disableReverseLookup: true,
    onAuth(auth, _session, callback) {
      const ref = auth.username ?? '';
      const given = Buffer.from(auth.password ?? '');
      const expected = Buffer.from(REF.test(ref) ? mailCatcherPassword(options.secret, ref) : '');
      if (expected.length === 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return callback(smtpError(535, 'Authentication failed: wrong project or password'));
      }
      callback(null, { user: ref });
    },
    onData(stream, session, callback) {
      readAll(stream, maxBytes)
        .then(async (source) => {
          if (stream.sizeExceeded) return callback(smtpError(552, `Message exceeds the limit of ${maxBytes} bytes`));
          const id = await options.store.add(refOf(session), await parse(source, session));
          callback(null, `Message kept as ${id}`);
        })
        .catch((error: unknown) => {
          options.log.warn({ err: error, ref: session.user }, 'a caught message could not be kept');
          callback(smtpError(451, 'The message could not be kept; try again later'));
        });
    },
  });
  // Socket errors of clients (resets, timeouts) arrive here; without a listener they would crash the process.
  server.on('error', (error) => options.log.warn({ err: error }, 'mail catcher connection error'));
  return server;
}

/** Listens on 127.0.0.1 and answers the port (0 picks a free one). */
export function listenCatcher(server: SMTPServer, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve((server.server.address() as AddressInfo).port);
    });
  });
}

export function closeCatcher(server: SMTPServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
