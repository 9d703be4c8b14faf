import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { IDENTITY_HEADER } from '@dash/contracts';
import { HttpError } from '../src/errors';
import { verifyIdentity } from '../src/identity';
import { platformConnectionResolver, ProjectPools } from '../src/project-pools';
import { createTestDatabase, TEST_SECRET } from '../src/testing';

describe('ProjectPools', () => {
  let database: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    database = await createTestDatabase('kitpool');
  });

  afterAll(async () => {
    await database.drop();
  });

  it('creates one pool per project, and does not remember failed lookups', async () => {
    const asked: string[] = [];
    let known = false;
    const pools = new ProjectPools(async (ref, role) => {
      asked.push(`${role}:${ref}`);
      if (ref === 'late' && !known) throw new HttpError(404, 'Project not found');
      return database.url;
    }, 2);
    try {
      const [a, b] = await Promise.all([pools.get('one'), pools.get('one')]);
      expect(a).toBe(b);
      expect((await a.query('select 1 as x')).rows).toEqual([{ x: 1 }]);
      await expect(pools.get('late')).rejects.toMatchObject({ statusCode: 404 });
      known = true;
      const late = await pools.get('late');
      expect((await late.query('select current_database() as db')).rows[0].db).toMatch(/^kitpool_/);
      expect(asked).toEqual(['admin:one', 'admin:late', 'admin:late']);
    } finally {
      await pools.closeAll();
    }
  });

  it('keeps a pool per role, and `as(role)` shares them with another default', async () => {
    const asked: string[] = [];
    const pools = new ProjectPools(async (ref, role) => {
      asked.push(`${role}:${ref}`);
      return database.url;
    });
    try {
      const storage = pools.as('storage');
      const [admin, viaStorage, readOnly] = await Promise.all([pools.get('p'), storage.get('p'), pools.get('p', 'read_only')]);
      expect(new Set([admin, viaStorage, readOnly]).size).toBe(3);
      expect(await storage.get('p', 'admin')).toBe(admin);
      expect(asked.sort()).toEqual(['admin:p', 'read_only:p', 'storage:p']);
    } finally {
      await pools.closeAll();
    }
  });
});

describe('platformConnectionResolver', () => {
  const platform = Fastify();
  let url = '';
  const callers: string[] = [];

  beforeAll(async () => {
    platform.get('/internal/projects/:ref/connection', async (request, reply) => {
      const identity = verifyIdentity(TEST_SECRET, request.headers[IDENTITY_HEADER] as string | undefined);
      if (identity?.kind !== 'service') return reply.status(401).send({ message: 'no' });
      callers.push(identity.sub);
      const { ref } = request.params as { ref: string };
      const { role } = request.query as { role?: string };
      if (ref === 'known') return { ref, connectionString: `postgres://${role}@127.0.0.1/known` };
      if (ref === 'broken') return reply.status(500).send({ message: 'oops' });
      return reply.status(404).send({ message: 'Project not found' });
    });
    await platform.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(platform.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await platform.close();
  });

  it('asks the platform with a signed service identity', async () => {
    const resolve = platformConnectionResolver(url, TEST_SECRET, 'pg-meta');
    await expect(resolve('known', 'read_only')).resolves.toBe('postgres://read_only@127.0.0.1/known');
    expect(callers).toEqual(['pg-meta']);
  });

  it('maps an unknown project to 404 and other failures to 502', async () => {
    const resolve = platformConnectionResolver(url, TEST_SECRET, 'storage');
    await expect(resolve('unknown', 'storage')).rejects.toMatchObject({ statusCode: 404, message: 'Project not found' });
    await expect(resolve('broken', 'storage')).rejects.toMatchObject({ statusCode: 502 });
    const wrongSecret = platformConnectionResolver(url, 'not-the-secret', 'storage');
    await expect(wrongSecret('known', 'storage')).rejects.toMatchObject({ statusCode: 502 });
  });
});
