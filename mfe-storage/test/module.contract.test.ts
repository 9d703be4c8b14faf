import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { checkRemoteModule, storageRoutes } from '@dash/contracts';
import storageModule from '../src/module';
import { EMPTY_BUCKET_FORM, toCreateBucketBody } from '../src/bucket-form';
import { bucketsReply, createdBucket } from './fixtures';

const ajv = addFormats(new Ajv({ strict: false }));

describe('mfe_storage contract', () => {
  it('exports a module that satisfies RemoteModule', () => {
    expect(checkRemoteModule(storageModule, { name: 'mfe_storage', mount: 'storage', areas: [{ mount: 'storage', title: 'Storage' }, { mount: 'settings/storage', title: 'Storage' }] })).toEqual([]);
  });

  it('is refused under another name', () => {
    expect(checkRemoteModule(storageModule, { name: 'mfe_other', mount: 'storage', areas: [{ mount: 'storage', title: 'Storage' }, { mount: 'settings/storage', title: 'Storage' }] })).toEqual([expect.stringContaining('name is mfe_storage')]);
  });

  it('uses fixtures that match the bucket list and create reply schemas', () => {
    const list = ajv.compile(storageRoutes.listBuckets.response);
    expect(list(bucketsReply)).toBe(true);
    expect(list([{ ...bucketsReply[0], created_at: 'yesterday' }])).toBe(false);
    expect(ajv.compile(storageRoutes.createBucket.response)(createdBucket('photos', { public: false }))).toBe(true);
  });

  it('builds create bodies the route accepts', () => {
    const validate = ajv.compile(storageRoutes.createBucket.body!);
    expect(validate(toCreateBucketBody({ ...EMPTY_BUCKET_FORM, name: 'photos' }))).toBe(true);
    const full = toCreateBucketBody({ name: 'media', public: true, limitEnabled: true, limitValue: '5', limitUnit: 'GB', mimeTypes: 'video/*, image/png' });
    expect(full).toEqual({ id: 'media', public: true, file_size_limit: 5368709120, allowed_mime_types: ['video/*', 'image/png'] });
    expect(validate(full)).toBe(true);
  });
});
