import pg from 'pg';
import { DATA_API_SETTINGS_DEFAULT, type DataApiSettings } from '@dash/contracts';
import { signJwt } from '@dash/service-kit';
import { TEST_SECRET } from '@dash/service-kit/dist/testing';
import { buildRestApp } from '../src/app';
import { createFixtureDatabase, type FixtureDatabase } from './fixture';

export const JWT_SECRET = 'a-project-jwt-secret-of-at-least-32-characters';
export const ALICE = '11111111-1111-4111-8111-111111111111';
export const BOB = '22222222-2222-4222-8222-222222222222';
export const anonKey = signJwt(JWT_SECRET, { role: 'anon', iss: 'dash' });
export const serviceKey = signJwt(JWT_SECRET, { role: 'service_role', iss: 'dash' });
export const userToken = (sub: string) =>
  signJwt(JWT_SECRET, { role: 'authenticated', sub, email: `${sub.slice(0, 4)}@example.com`, exp: Math.floor(Date.now() / 1000) + 600 });

/** The rest service over a fresh film fixture database, with a `todos` table whose rows belong to users (RLS on auth.uid()). */
export interface RestServer {
  db: FixtureDatabase;
  app: ReturnType<typeof buildRestApp>;
  /** Runs SQL as the project's admin role (DDL, fixtures). */
  asAdmin: (sql: string) => Promise<void>;
  /** Settings → API as the next requests see them. */
  setDataApi: (settings: Partial<DataApiSettings>) => void;
  close: () => Promise<void>;
}

export async function startRestServer(prefix: string): Promise<RestServer> {
  const db = await createFixtureDatabase(prefix);
  let dataApi: DataApiSettings = DATA_API_SETTINGS_DEFAULT;
  const asAdmin = async (sql: string) => {
    const client = new pg.Client({ connectionString: db.connections.admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await asAdmin(`
    create table public.todos (id serial primary key, owner uuid not null default auth.uid(), title text not null, done boolean not null default false);
    alter table public.todos enable row level security;
    create policy "own todos" on public.todos for all to authenticated using (owner = auth.uid()) with check (owner = auth.uid());
    insert into public.todos (owner, title) values ('${ALICE}', 'alice 1'), ('${ALICE}', 'alice 2'), ('${BOB}', 'bob 1');
  `);
  const app = buildRestApp({
    secret: TEST_SECRET,
    resolver: async (_ref, role) => db.connections[role],
    settings: async () => ({ jwtSecret: JWT_SECRET, dataApi }),
  });
  await app.ready();
  return {
    db,
    app,
    asAdmin,
    setDataApi: (settings) => (dataApi = { ...DATA_API_SETTINGS_DEFAULT, ...settings }),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}
