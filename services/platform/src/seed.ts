import type { OrgRole } from '@dash/contracts';
import { seedDemoData } from '@dash/service-kit';
import type { PlatformContext } from './context';
import { hashPassword } from './crypto';
import { findProjectByRef } from './db/projects';
import { addMember, countUsers, insertUser, upsertOrganization } from './db/users';
import { projectRoleConnection } from './projects';
import { createProject, provisionerOf } from './provisioner';

export const DEMO_ORG = { slug: 'demo', name: 'Demo organization' } as const;
export const DEMO_PROJECT = { ref: 'default', name: 'Default project' } as const;
export const DEMO_USERS: ReadonlyArray<{ email: string; name: string; role: OrgRole }> = [
  { email: 'owner@example.com', name: 'Demo Owner', role: 'owner' },
  { email: 'viewer@example.com', name: 'Demo Viewer', role: 'read_only' },
];

export interface SeedResult {
  /** False when the platform already had users and nothing was touched. */
  seeded: boolean;
  users: Array<{ email: string; name: string; role: OrgRole }>;
  projectRef: string;
}

/**
 * Seeds the demo organization, project (with a little demo data) and users, but only on a platform
 * without users. The users are written last in one transaction, so a seed interrupted before that
 * point runs again in full at the next start; every earlier step is idempotent.
 */
export async function seedDemo(ctx: PlatformContext, options: { password: string }): Promise<SeedResult> {
  if (!options.password) throw new Error('The demo password must not be empty');
  if ((await countUsers(ctx.db)) > 0) return { seeded: false, users: [], projectRef: DEMO_PROJECT.ref };

  const orgId = await upsertOrganization(ctx.db, DEMO_ORG.slug, DEMO_ORG.name);
  // A demo project an earlier start left coming up is brought up first (run() is a no-op once it is up).
  const existing = await findProjectByRef(ctx.db, DEMO_PROJECT.ref);
  const project = existing
    ? ((await provisionerOf(ctx).run(existing.ref)) ?? existing)
    : await createProject(ctx, { ref: DEMO_PROJECT.ref, name: DEMO_PROJECT.name, orgId });
  // On the free plan the upload limit is fixed; the demo runs on Pro so the storage settings page can
  // really change it.
  await ctx.db.updateTable('projects').set({ plan: 'pro' }).where('id', '=', project.id).execute();
  // As the project admin role, so the demo tables are the project's own (owned by that role).
  await seedDemoData(projectRoleConnection(ctx, project, 'admin'));

  const passwordHash = await hashPassword(options.password);
  await ctx.db.transaction().execute(async (trx) => {
    for (const demo of DEMO_USERS) {
      const user = await insertUser(trx, { email: demo.email, name: demo.name, passwordHash });
      await addMember(trx, orgId, user.id, demo.role);
    }
  });
  return { seeded: true, users: DEMO_USERS.map((u) => ({ ...u })), projectRef: DEMO_PROJECT.ref };
}
