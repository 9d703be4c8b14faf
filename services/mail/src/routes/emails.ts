import type { FastifyInstance } from 'fastify';
import { MailMessages, mailRoutes } from '@dash/contracts';
import { addRoute, HttpError } from '@dash/service-kit';
import type { MailStore } from '../store';

/** A project's caught mail, for members who may manage its auth users (the contract's access rule). */
export async function emailRoutesPlugin(app: FastifyInstance, { store }: { store: MailStore }): Promise<void> {
  addRoute(app, mailRoutes.listMail, async ({ params, query }) => store.list(params.ref, query.offset, query.limit));
  addRoute(app, mailRoutes.getMail, async ({ params }) => {
    const mail = await store.get(params.ref, params.id);
    if (!mail) throw new HttpError(404, MailMessages.emailNotFound);
    return mail;
  });
  addRoute(app, mailRoutes.deleteAllMail, async ({ params }) => ({ deleted: await store.deleteAll(params.ref) }));
}
