import { Messages } from '@dash/contracts';
import { HttpError } from '@dash/service-kit';
import {
  BUCKET_ID_NOT_NAME,
  BUCKET_NAME_FIXED,
  bucketChangesFrom,
  bucketNameProblem,
  bucketSchemaErrorMessage,
  fileSizeLimitFrom,
  invalidMimeType,
  newApiBucketFrom,
  newBucketFrom,
  normalizeMimeTypes,
} from '../src/bucket-rules';
import { createBucketQuery, dropObjectPolicyQuery, listBucketsQuery, updateBucketQuery } from '../src/sql/buckets';

/** The status and message of the HttpError `fn` throws, or null when it throws nothing. */
const problem = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof HttpError ? [e.statusCode, e.message] : e;
  }
  return null;
};

describe('bucket name rules', () => {
  it('follows the spec', () => {
    expect(bucketNameProblem('')).toBe(Messages.bucketNameRequired);
    expect(bucketNameProblem('   ')).toBe(Messages.bucketNameRequired);
    expect(bucketNameProblem('avatars ')).toBe(Messages.bucketNameTrailingWhitespace);
    expect(bucketNameProblem('avatars\t')).toBe(Messages.bucketNameTrailingWhitespace);
    expect(bucketNameProblem('public')).toBe(Messages.bucketNameReserved);
    expect(bucketNameProblem('avatars')).toBeNull();
    expect(bucketNameProblem('public-assets')).toBeNull();
    expect(bucketNameProblem(' leading')).toBeNull();
  });
});

describe('newBucketFrom', () => {
  it('builds the row to insert', () => {
    expect(newBucketFrom({ id: 'docs', public: true, file_size_limit: 1024, allowed_mime_types: [' image/* ', '', 'image/*', 'text/plain'] })).toEqual({
      name: 'docs',
      public: true,
      fileSizeLimit: 1024,
      allowedMimeTypes: ['image/*', 'text/plain'],
    });
    expect(newBucketFrom({ id: 'docs', public: false })).toEqual({ name: 'docs', public: false, fileSizeLimit: null, allowedMimeTypes: null });
  });

  it('throws 400s with the spec words', () => {
    expect(problem(() => newBucketFrom({ id: 'public', public: true }))).toEqual([400, Messages.bucketNameReserved]);
    expect(problem(() => newBucketFrom({ id: 'x', public: true, file_size_limit: -1 }))).toEqual([400, Messages.bucketSizeLimitMin]);
  });

  it('treats blank MIME type lists as any type', () => {
    expect(normalizeMimeTypes(undefined)).toBeNull();
    expect(normalizeMimeTypes([])).toBeNull();
    expect(normalizeMimeTypes(['  '])).toBeNull();
  });
});

describe('bucketSchemaErrorMessage', () => {
  it('uses the spec words for a missing or empty name and a negative size', () => {
    expect(bucketSchemaErrorMessage([{ instancePath: '/id', keyword: 'minLength', message: 'x' }], 'body')).toBe(Messages.bucketNameRequired);
    expect(bucketSchemaErrorMessage([{ instancePath: '', keyword: 'required', params: { missingProperty: 'id' } }], 'body')).toBe(Messages.bucketNameRequired);
    expect(bucketSchemaErrorMessage([{ instancePath: '/file_size_limit', keyword: 'minimum' }], 'body')).toBe(Messages.bucketSizeLimitMin);
  });

  it('reads like Fastify otherwise', () => {
    expect(bucketSchemaErrorMessage([{ instancePath: '/public', keyword: 'type', message: 'must be boolean' }], 'body')).toBe('body/public must be boolean');
    expect(bucketSchemaErrorMessage([{ instancePath: '/ref', keyword: 'pattern', message: 'must match' }], 'params')).toBe('params/ref must match');
  });
});

describe('bucket SQL', () => {
  it('is parameterised', () => {
    const q = createBucketQuery({ name: `x'); drop table storage.buckets; --`, public: false, fileSizeLimit: null, allowedMimeTypes: ['a/b'] });
    expect(q.text).not.toContain('drop table');
    expect(q.values).toEqual([`x'); drop table storage.buckets; --`, false, null, ['a/b']]);
    expect(listBucketsQuery().text).toMatch(/order by "name" asc, id$/);
    expect(listBucketsQuery().values).toEqual([]);
  });

  it("takes storage-js's list options as parameters, the sort from a closed list", () => {
    const q = listBucketsQuery({ search: "50%_o\\'ff", sortColumn: 'created_at', sortOrder: 'desc', limit: 10, offset: 20 });
    expect(q.text).toMatch(/where name ilike '%' \|\| \$1 \|\| '%' order by "created_at" desc, id limit \$2 offset \$3$/);
    expect(q.values).toEqual(["50\\%\\_o\\\\'ff", 10, 20]);
  });

  it('updates only the fields given', () => {
    expect(updateBucketQuery('b', {})).toEqual({
      text: expect.stringMatching(/^update storage\.buckets set updated_at = now\(\) where id = \$1 returning /),
      values: ['b'],
    });
    const q = updateBucketQuery('b', { public: true, fileSizeLimit: null, allowedMimeTypes: ['image/*'] });
    expect(q.text).toMatch(/set updated_at = now\(\), public = \$2, file_size_limit = \$3, allowed_mime_types = \$4::text\[\] where id = \$1/);
    expect(q.values).toEqual(['b', true, null, ['image/*']]);
    expect(updateBucketQuery('b', { allowedMimeTypes: null }).values).toEqual(['b', null]);
  });

  it('quotes the name of a policy to drop', () => {
    expect(dropObjectPolicyQuery('Give "users" access; drop table x').text).toBe('drop policy "Give ""users"" access; drop table x" on storage.objects');
  });
});

describe('bucket upload limits', () => {
  it('takes bytes or a size with a unit', () => {
    expect(fileSizeLimitFrom(undefined)).toBeNull();
    expect(fileSizeLimitFrom(null)).toBeNull();
    expect(fileSizeLimitFrom(0)).toBe(0);
    expect(fileSizeLimitFrom(1024)).toBe(1024);
    expect(fileSizeLimitFrom('10')).toBe(10);
    expect(fileSizeLimitFrom(' 20MB ')).toBe(20 * 1024 * 1024);
    expect(fileSizeLimitFrom('1.5kb')).toBe(1536);
    expect(fileSizeLimitFrom('2 GB')).toBe(2 * 1024 ** 3);
    expect(fileSizeLimitFrom('7b')).toBe(7);
  });

  it('refuses what is not a size', () => {
    expect(problem(() => fileSizeLimitFrom(-1))).toEqual([400, Messages.bucketSizeLimitMin]);
    for (const bad of ['', 'ten', '10 parsecs', '-5MB', '1e3', '99999999999 TB']) {
      expect(problem(() => fileSizeLimitFrom(bad))).toEqual([400, expect.stringContaining(`Invalid file size limit "${bad}"`)]);
    }
  });
});

describe('bucket MIME types', () => {
  it('accepts type/subtype and type/*', () => {
    const types = ['image/png', 'image/*', 'application/vnd.ms-excel', 'image/svg+xml', 'text/x-c++src', 'Application/JSON'];
    expect(newBucketFrom({ id: 'm', public: false, allowed_mime_types: types }).allowedMimeTypes).toEqual(types);
  });

  it('names the first entry that is not a MIME type', () => {
    for (const bad of ['image', '*/*', 'image/', '/png', 'image/png; charset=utf-8', 'image/p*', 'image/png/x', 'ima ge/png']) {
      expect(problem(() => newBucketFrom({ id: 'm', public: false, allowed_mime_types: ['text/plain', bad] }))).toEqual([400, invalidMimeType(bad)]);
      expect(problem(() => bucketChangesFrom('m', { allowed_mime_types: [bad] }))).toEqual([400, invalidMimeType(bad)]);
    }
  });
});

describe('bucket updates', () => {
  it('changes only what is given', () => {
    expect(bucketChangesFrom('b', {})).toEqual({});
    expect(bucketChangesFrom('b', { public: false })).toEqual({ public: false });
    expect(bucketChangesFrom('b', { file_size_limit: null, allowed_mime_types: [] })).toEqual({ fileSizeLimit: null, allowedMimeTypes: null });
    expect(bucketChangesFrom('b', { id: 'b', name: 'b', file_size_limit: '1kb' })).toEqual({ fileSizeLimit: 1024 });
  });

  it('never renames a bucket', () => {
    expect(problem(() => bucketChangesFrom('b', { name: 'c' }))).toEqual([400, BUCKET_NAME_FIXED]);
    expect(problem(() => bucketChangesFrom('b', { id: 'c', name: 'b' }))).toEqual([400, BUCKET_NAME_FIXED]);
  });
});

describe("storage-js's create request", () => {
  it('is private unless public is given, and checks the name like the dashboard', () => {
    expect(newApiBucketFrom({ name: 'docs', id: 'docs' })).toEqual({ name: 'docs', public: false, fileSizeLimit: null, allowedMimeTypes: null });
    expect(newApiBucketFrom({ name: 'docs', public: true, file_size_limit: '1MB', allowed_mime_types: ['image/*'] })).toEqual({
      name: 'docs',
      public: true,
      fileSizeLimit: 1024 * 1024,
      allowedMimeTypes: ['image/*'],
    });
    expect(problem(() => newApiBucketFrom({ name: 'public' }))).toEqual([400, Messages.bucketNameReserved]);
    expect(problem(() => newApiBucketFrom({ name: 'a ', id: 'a ' }))).toEqual([400, Messages.bucketNameTrailingWhitespace]);
    expect(problem(() => newApiBucketFrom({ name: 'a', id: 'b' }))).toEqual([400, BUCKET_ID_NOT_NAME]);
  });
});
