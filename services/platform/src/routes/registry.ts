import type { FastifyInstance } from 'fastify';
import { platformRoutes, REGISTRY_SCHEMA_VERSION, type Registry } from '@dash/contracts';
import { addRoute, conflict, notFound } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { activeRemotes, allRemoteVersions, lockRemote, toRemote, versionsOf } from '../db/registry';

/** Internal: the remote registry the gateway serves as /registry.json, and `npm run remote`. */
export async function registryRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, platformRoutes.registry, async (): Promise<Registry> => ({
    schemaVersion: REGISTRY_SCHEMA_VERSION,
    remotes: await activeRemotes(ctx.db),
  }));

  addRoute(app, platformRoutes.listRemoteVersions, async () => {
    const rows = await allRemoteVersions(ctx.db);
    return {
      versions: rows.map((row) => ({ ...toRemote(row), active: row.active, published_at: row.published_at.toISOString() })),
    };
  });

  // Publishing inserts the version, or reuses the row of an earlier publish of the same version (its
  // entry may have moved, e.g. a stack started on another port), and makes it the only active one, in
  // one transaction. A re-publish counts as the latest publish for rollback.
  addRoute(app, platformRoutes.publishRemote, async ({ body }) =>
    ctx.db.transaction().execute(async (trx) => {
      await lockRemote(trx, body.name);
      const existing = (await versionsOf(trx, body.name)).find((row) => row.version === body.version);
      await trx.updateTable('remote_versions').set({ active: false }).where('name', '=', body.name).where('active', '=', true).execute();
      const fields = { entry: body.entry, contract: body.contract, mount: body.mount, title: body.title, areas: body.areas ? JSON.stringify(body.areas) : null, active: true };
      const row = existing
        ? await trx
            .updateTable('remote_versions')
            .set((eb) => ({ ...fields, published_at: eb.fn<Date>('clock_timestamp', []) }))
            .where('id', '=', existing.id)
            .returningAll()
            .executeTakeFirstOrThrow()
        : await trx
            .insertInto('remote_versions')
            .values({ ...fields, name: body.name, version: body.version })
            .returningAll()
            .executeTakeFirstOrThrow();
      return toRemote(row);
    }),
  );

  // Rollback activates the version published just before the active one.
  addRoute(app, platformRoutes.rollbackRemote, async ({ body }) =>
    ctx.db.transaction().execute(async (trx) => {
      await lockRemote(trx, body.name);
      const versions = await versionsOf(trx, body.name); // newest first
      if (versions.length === 0) throw notFound(`Remote ${body.name} has no published versions`);
      const activeIndex = versions.findIndex((row) => row.active);
      if (activeIndex === -1) throw conflict(`Remote ${body.name} has no active version to roll back from`);
      const from = versions[activeIndex]!;
      const to = versions[activeIndex + 1];
      if (!to) {
        throw conflict(`Remote ${body.name} has no version published before ${from.version} to roll back to`);
      }
      await trx.updateTable('remote_versions').set({ active: false }).where('id', '=', from.id).execute();
      await trx.updateTable('remote_versions').set({ active: true }).where('id', '=', to.id).execute();
      return { from: toRemote(from), to: toRemote(to) };
    }),
  );
}
