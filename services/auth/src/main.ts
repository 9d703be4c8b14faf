import { envPort, listen, platformConnectionResolver, projectMailer, requireEnv, serviceAnswers, serviceLogShipper } from '@dash/service-kit';
import { buildAuthApp } from './app';
import { platformAuthSettings } from './server/context';

/**
 * Env: PORT (default 8097), DASH_INTERNAL_SECRET, DASH_PLATFORM_URL (a project's connection strings, JWT
 * secret, auth and SMTP settings), DASH_PUBLIC_URL (the gateway's browser-facing origin, for links in mails),
 * DASH_MAIL_SMTP_PORT (the mail catcher's SMTP port on 127.0.0.1, where mail goes unless a project set its own
 * SMTP server), DASH_LOGS_URL (auth_logs events; none without it).
 */
async function main(): Promise<void> {
  const secret = requireEnv('DASH_INTERNAL_SECRET');
  const platformUrl = requireEnv('DASH_PLATFORM_URL');
  const logsUrl = process.env.DASH_LOGS_URL;
  const app = buildAuthApp({
    secret,
    resolver: platformConnectionResolver(platformUrl, secret, 'auth'),
    settings: platformAuthSettings(platformUrl, secret),
    mailer: projectMailer({ platformUrl, secret, caller: 'auth', catcher: { host: '127.0.0.1', port: envPort('DASH_MAIL_SMTP_PORT', 8099) } }),
    publicUrl: requireEnv('DASH_PUBLIC_URL'),
    dependencies: { platform: () => serviceAnswers(platformUrl) },
    logs: serviceLogShipper({ logsUrl, secret, caller: 'auth', what: 'auth log events', warn: (fields, message) => app.log.warn(fields, message) }),
    logger: true,
  });
  await listen(app, envPort('PORT', 8097));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
