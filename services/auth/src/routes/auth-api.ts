import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { DATABASE_UNAVAILABLE, HttpError, isConnectionFailure, refuseLargeBody } from '@dash/service-kit';
import type { AuthServiceContext } from '../server/context';
import { AuthError, sendAuthError } from '../server/errors';
import { adminRoutes } from './admin';
import { factorRoutes } from './factors';
import { signUpRoutes } from './sign-up';
import { tokenRoutes } from './token';
import { userRoutes } from './user';
import { verifyRoutes } from './verify';

/**
 * The auth API under `/:ref/v1` (the gateway serves it as `/p/:ref/auth/v1`). Every error answers in GoTrue's
 * shape: the handlers' `AuthError`s, the contract's validation (400 `validation_failed`), bodies that do not
 * parse (400 `bad_json`), unknown projects (404) and a database that is not there (503).
 */
export async function authApiRoutes(app: FastifyInstance, { ctx }: { ctx: AuthServiceContext }): Promise<void> {
  // Some OAuth-style clients post forms to /token; GoTrue reads both.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  // auth-js labels every request JSON, also the bodiless POST /logout and DELETEs of factors and identities;
  // GoTrue reads an empty body as none. Anything else goes through Fastify's own (safe) JSON parser.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    return json(request, body as string, done);
  });
  app.setErrorHandler((error: Error & { validation?: unknown; code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof AuthError) return sendAuthError(request, reply, error);
    if (error.validation) return sendAuthError(request, reply, new AuthError(400, 'validation_failed', error.message));
    if (error instanceof HttpError) return sendAuthError(request, reply, new AuthError(error.statusCode, error.statusCode === 404 ? 'not_found' : 'unexpected_failure', error.message));
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
      return sendAuthError(request, reply, new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${error.message}`));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendAuthError(request, reply, new AuthError(415, 'validation_failed', 'Unsupported content type: send JSON'));
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refuseLargeBody(request, reply, () => sendAuthError(request, reply, new AuthError(413, 'request_too_large', 'The request body is too large')));
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return sendAuthError(request, reply, new AuthError(error.statusCode, 'validation_failed', error.message));
    // SQLSTATE class 22, data exception: a value the client sent that Postgres cannot hold (NUL in metadata text).
    if (error instanceof pg.DatabaseError && error.code?.startsWith('22')) return sendAuthError(request, reply, new AuthError(400, 'validation_failed', error.message));
    if (isConnectionFailure(error)) return sendAuthError(request, reply, new AuthError(503, 'service_unavailable', DATABASE_UNAVAILABLE));
    request.log.error({ err: error }, 'unhandled auth API error');
    return sendAuthError(request, reply, new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'));
  });
  signUpRoutes(app, ctx);
  tokenRoutes(app, ctx);
  verifyRoutes(app, ctx);
  userRoutes(app, ctx);
  factorRoutes(app, ctx);
  adminRoutes(app, ctx);
}
