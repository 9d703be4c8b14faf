import type { Bucket, PgPolicy, PgRole, RouteReply, storageRoutes } from '@dash/contracts';
import { bootstrapRoles } from '@dash/shell-sdk/testing';

export const avatars: Bucket = {
  id: 'avatars',
  name: 'avatars',
  owner: null,
  public: true,
  file_size_limit: 2097152,
  allowed_mime_types: ['image/*', 'application/pdf'],
  created_at: '2026-11-20T09:30:00.000Z',
  updated_at: '2026-11-21T10:00:00.000Z',
};

export const invoices: Bucket = {
  id: 'invoices',
  name: 'invoices',
  owner: null,
  public: false,
  file_size_limit: null,
  allowed_mime_types: null,
  created_at: '2026-11-19T08:00:00.000Z',
  updated_at: '2026-11-19T08:00:00.000Z',
};

export const bucketsReply: RouteReply<typeof storageRoutes.listBuckets> = [invoices, avatars];

export function createdBucket(id: string, body: { public: boolean; file_size_limit?: number | null; allowed_mime_types?: string[] | null }): Bucket {
  return {
    id,
    name: id,
    owner: null,
    public: body.public,
    file_size_limit: body.file_size_limit ?? null,
    allowed_mime_types: body.allowed_mime_types ?? null,
    created_at: '2026-11-22T12:00:00.000Z',
    updated_at: '2026-11-22T12:00:00.000Z',
  };
}

const policy = (id: number, table: 'objects' | 'buckets', name: string, command: PgPolicy['command'], definition: string | null, check: string | null, roles = ['public']): PgPolicy => ({
  id,
  schema: 'storage',
  table,
  table_id: table === 'objects' ? 17001 : 17000,
  name,
  action: 'PERMISSIVE',
  roles,
  command,
  definition,
  check,
});

/** Expressions as Postgres prints them back (pg_get_expr): parenthesised, literals cast. */
export const storagePoliciesReply: PgPolicy[] = [
  policy(31001, 'objects', 'Avatar uploads', 'INSERT', null, "(bucket_id = 'avatars'::text)", ['authenticated']),
  policy(31002, 'objects', 'Anyone reads avatars', 'SELECT', "((bucket_id = 'avatars'::text) AND (auth.role() = 'anon'::text))", null),
  policy(31003, 'objects', 'Mentions avatars', 'SELECT', "(name ~~ '%bucket_id = ''avatars''%'::text)", null),
  policy(31004, 'objects', 'Either bucket', 'SELECT', "((bucket_id = 'avatars'::text) OR (bucket_id = 'invoices'::text))", null),
  policy(31005, 'objects', 'Archive cleanup', 'DELETE', "(bucket_id = 'archive'::text)", null),
  policy(31006, 'buckets', 'Anyone lists buckets', 'SELECT', 'true', null),
  policy(31007, 'objects', 'Owners update invoices', 'UPDATE', "((bucket_id = 'invoices'::text) AND (owner_id = (auth.uid())::text))", "((bucket_id = 'invoices'::text) AND (owner_id = (auth.uid())::text))", ['authenticated']),
  policy(31008, 'objects', 'Accountants read invoices', 'SELECT', "(bucket_id = 'invoices'::text)", null, ['authenticated', 'service_role']),
];

export const rolesReply: PgRole[] = bootstrapRoles();
