import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';

/**
 * Just enough of the Postgres wire protocol (version 3) to hand a logged-in session to a client that
 * speaks the protocol itself (the WebAssembly pg_dump): open a TCP connection, log in (trust, password,
 * MD5 or SCRAM-SHA-256), then exchange raw message bytes.
 */

/** One backend message: its type byte, the whole frame (type + length + body) and the body. */
export interface BackendMessage {
  type: string;
  frame: Buffer;
  body: Buffer;
}

const PROTOCOL_3 = 196608;
/** The codes of the 8-byte requests a client may send before its startup message. */
export const SSL_REQUEST_CODE = 80877103;
export const GSSENC_REQUEST_CODE = 80877104;

function frame(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** A message whose frame has no type byte: the startup message and the 8-byte requests before it. */
export function untypedCode(bytes: Buffer): number | null {
  if (bytes.length < 8 || bytes.readInt32BE(0) !== bytes.length) return null;
  return bytes.readInt32BE(4);
}

export const isStartupMessage = (bytes: Buffer) => untypedCode(bytes) === PROTOCOL_3;

/** AuthenticationOk, then the given ParameterStatus and BackendKeyData frames, then ReadyForQuery (idle). */
export function loggedInReply(statusFrames: Buffer[], keyFrame: Buffer | null): Buffer {
  const authOk = frame('R', Buffer.alloc(4));
  return Buffer.concat([authOk, ...statusFrames, ...(keyFrame ? [keyFrame] : []), frame('Z', Buffer.from('I'))]);
}

/** The Postgres error text of an ErrorResponse body (its `M` field, with the SQLSTATE). */
export function errorText(body: Buffer): string {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const code = String.fromCharCode(body[at]!);
    const end = body.indexOf(0, at + 1);
    fields.set(code, body.toString('utf8', at + 1, end));
    at = end + 1;
  }
  return `${fields.get('M') ?? 'unknown error'}${fields.has('C') ? ` (SQLSTATE ${fields.get('C')})` : ''}`;
}

/**
 * The SCRAM-SHA-256 client (RFC 5802/7677) without channel binding, as libpq does over a plain
 * connection. Passwords here are ASCII (generated, or checked printable by the create-project form), which
 * SASLprep leaves as they are.
 */
export class ScramClient {
  private readonly nonce = randomBytes(18).toString('base64');
  private readonly clientFirstBare = `n=*,r=${this.nonce}`;
  private serverSignature: Buffer | null = null;

  constructor(private readonly password: string) {}

  /** The SASLInitialResponse body: the mechanism name and the client-first message. */
  initialResponse(): Buffer {
    const data = Buffer.from(`n,,${this.clientFirstBare}`);
    const length = Buffer.alloc(4);
    length.writeInt32BE(data.length);
    return Buffer.concat([Buffer.from('SCRAM-SHA-256\0'), length, data]);
  }

  /** The client-final message for the server-first one. */
  finalResponse(serverFirst: string): Buffer {
    const attrs = new Map(serverFirst.split(',').map((part) => [part.slice(0, 1), part.slice(2)] as const));
    const nonce = attrs.get('r') ?? '';
    const salt = attrs.get('s');
    const iterations = Number(attrs.get('i'));
    if (!nonce.startsWith(this.nonce) || !salt || !Number.isInteger(iterations) || iterations < 1) {
      throw new Error('The server sent an invalid SCRAM challenge');
    }
    const salted = pbkdf2Sync(this.password, Buffer.from(salt, 'base64'), iterations, 32, 'sha256');
    const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
    const clientKey = hmac(salted, 'Client Key');
    const storedKey = createHash('sha256').update(clientKey).digest();
    const withoutProof = `c=biws,r=${nonce}`;
    const authMessage = `${this.clientFirstBare},${serverFirst},${withoutProof}`;
    const signature = hmac(storedKey, authMessage);
    const proof = Buffer.from(clientKey.map((byte, i) => byte ^ signature[i]!));
    this.serverSignature = hmac(hmac(salted, 'Server Key'), authMessage);
    return Buffer.from(`${withoutProof},p=${proof.toString('base64')}`);
  }

  /** Checks the server-final message: the server proves it knew the password too. */
  verifyFinal(serverFinal: string): void {
    const verifier = /(?:^|,)v=([^,]+)/.exec(serverFinal)?.[1];
    const expected = this.serverSignature;
    const got = verifier ? Buffer.from(verifier, 'base64') : Buffer.alloc(0);
    if (!expected || got.length !== expected.length || !timingSafeEqual(got, expected)) {
      throw new Error('The server failed SCRAM authentication');
    }
  }
}

/** A logged-in connection: the frames of its login, and raw message exchange from then on. */
export class WireSession {
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: Array<() => void> = [];
  private failure: Error | null = null;
  /** ParameterStatus frames the server sent while logging in (server_version, client_encoding...). */
  readonly statusFrames: Buffer[] = [];
  keyFrame: Buffer | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (data: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
      this.wake();
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('The database server closed the connection')));
  }

  /** Connects and logs in as the connection string's user to its database. */
  static async open(connectionString: string, applicationName: string): Promise<WireSession> {
    const url = new URL(connectionString);
    const socket = net.connect({ host: url.hostname || '127.0.0.1', port: Number(url.port || 5432) });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const session = new WireSession(socket);
    try {
      await session.logIn(decodeURIComponent(url.username), decodeURIComponent(url.password), decodeURIComponent(url.pathname.slice(1)), applicationName);
    } catch (error) {
      session.close();
      throw error;
    }
    return session;
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resume of waiting) resume();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.wake();
  }

  /** The next complete backend message. */
  async next(): Promise<BackendMessage> {
    for (;;) {
      if (this.buffer.length >= 5) {
        const end = 1 + this.buffer.readInt32BE(1);
        if (this.buffer.length >= end) {
          const whole = this.buffer.subarray(0, end);
          this.buffer = this.buffer.subarray(end);
          return { type: String.fromCharCode(whole[0]!), frame: whole, body: whole.subarray(5) };
        }
      }
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  write(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  close(): void {
    if (!this.socket.destroyed) {
      // Terminate, so the server logs a clean end of session rather than an unexpected EOF.
      this.socket.end(frame('X', Buffer.alloc(0)));
    }
  }

  private async logIn(user: string, password: string, database: string, applicationName: string): Promise<void> {
    const params = Buffer.from(`user\0${user}\0database\0${database}\0application_name\0${applicationName}\0\0`);
    const head = Buffer.alloc(8);
    head.writeInt32BE(params.length + 8, 0);
    head.writeInt32BE(PROTOCOL_3, 4);
    this.write(Buffer.concat([head, params]));
    let scram: ScramClient | null = null;
    for (;;) {
      const message = await this.next();
      switch (message.type) {
        case 'R': {
          const code = message.body.readInt32BE(0);
          if (code === 0) break;
          if (code === 3) this.write(frame('p', Buffer.from(`${password}\0`)));
          else if (code === 5) {
            const inner = createHash('md5').update(password + user).digest('hex');
            const outer = createHash('md5').update(inner).update(message.body.subarray(4, 8)).digest('hex');
            this.write(frame('p', Buffer.from(`md5${outer}\0`)));
          } else if (code === 10) {
            if (!message.body.subarray(4).toString().split('\0').includes('SCRAM-SHA-256')) {
              throw new Error('The database server offers no SASL mechanism this client supports');
            }
            scram = new ScramClient(password);
            this.write(frame('p', scram.initialResponse()));
          } else if (code === 11 && scram) this.write(frame('p', scram.finalResponse(message.body.subarray(4).toString())));
          else if (code === 12 && scram) scram.verifyFinal(message.body.subarray(4).toString());
          else throw new Error(`The database server asks for an authentication method this client does not support (${code})`);
          break;
        }
        case 'S':
          this.statusFrames.push(Buffer.from(message.frame));
          break;
        case 'K':
          this.keyFrame = Buffer.from(message.frame);
          break;
        case 'E':
          throw new Error(errorText(message.body));
        case 'Z':
          return;
        default:
          // NoticeResponse and anything else before ReadyForQuery carry nothing the session needs.
          break;
      }
    }
  }
}
