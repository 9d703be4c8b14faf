import type { Bucket, RouteReply, storageRoutes } from '@dash/contracts';

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
