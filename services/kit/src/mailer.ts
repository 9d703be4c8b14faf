import { createHmac } from 'node:crypto';
import { createTransport, type Transporter } from 'nodemailer';
import { authSmtpRoutes, type ProjectMailDelivery } from '@dash/contracts';
import { PROJECT_NOT_FOUND } from './project-pools';
import { cachedPerProject, callService } from './service-calls';

export interface ProjectMail {
  to: string;
  subject: string;
  html: string;
  text?: string;
}

export interface ProjectMailer {
  send(ref: string, mail: ProjectMail): Promise<{ messageId: string }>;
  /** The project's smallest gap between two mails to one user, in seconds (its SMTP settings' minimum interval). */
  maxFrequency(ref: string): Promise<number>;
  close(): void;
}

export interface ProjectMailerOptions {
  /** The platform service's origin: it says where each project's mail goes. */
  platformUrl: string;
  /** DASH_INTERNAL_SECRET: signs the platform call and derives the catcher's passwords. */
  secret: string;
  /** The calling service's name, for the platform's logs. */
  caller: string;
  /** The mail service's SMTP listener (`DASH_MAIL_SMTP_PORT`). */
  catcher: { host: string; port: number };
}

/**
 * The catcher's SMTP password of a project (its user name is the ref): both the senders and the catcher
 * derive it from the stack's internal secret, so no password is stored or handed around.
 */
export function mailCatcherPassword(secret: string, ref: string): string {
  return createHmac('sha256', secret).update(`mail:${ref}`).digest('base64url');
}

/** A changed SMTP setting applies within this. */
const DELIVERY_TTL_MS = 2_000;
/** A server that does not answer must not hold the sender (auth's request) for long. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/**
 * Sends a project's mail: through its own SMTP server when Settings → Authentication enables custom SMTP,
 * otherwise to the mail catcher as the project. One small connection pool per project, replaced when its
 * settings change.
 */
export function projectMailer(options: ProjectMailerOptions): ProjectMailer {
  const delivery = cachedPerProject(DELIVERY_TTL_MS, (ref) =>
    callService(options.platformUrl, options.secret, options.caller, authSmtpRoutes.projectMailDelivery, { params: { ref }, notFound: PROJECT_NOT_FOUND }),
  );
  const transports = new Map<string, { key: string; transport: Transporter }>();

  const transportOf = (ref: string, how: ProjectMailDelivery): Transporter => {
    const server = how.smtp ?? { host: options.catcher.host, port: options.catcher.port, user: ref, pass: mailCatcherPassword(options.secret, ref) };
    const key = JSON.stringify(server);
    const held = transports.get(ref);
    if (held?.key === key) return held.transport;
    held?.transport.close();
    const transport = createTransport({
      pool: true,
      maxConnections: 2,
      host: server.host,
      port: server.port,
      // 465 is TLS from the first byte; other ports upgrade with STARTTLS when the server offers it. The
      // catcher is on loopback and offers none.
      secure: how.smtp !== null && server.port === 465,
      ignoreTLS: how.smtp === null,
      auth: { user: server.user, pass: server.pass },
      ...SMTP_TIMEOUTS,
    });
    transports.set(ref, { key, transport });
    return transport;
  };

  return {
    async send(ref, mail) {
      const how = await delivery(ref);
      const info = await transportOf(ref, how).sendMail({
        from: { name: how.sender.name, address: how.sender.email },
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        ...(mail.text !== undefined ? { text: mail.text } : {}),
      });
      return { messageId: String(info.messageId) };
    },
    async maxFrequency(ref) {
      return (await delivery(ref)).max_frequency;
    },
    close() {
      for (const { transport } of transports.values()) transport.close();
      transports.clear();
    },
  };
}
