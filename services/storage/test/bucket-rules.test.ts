import { Messages } from '@dash/contracts';
import { HttpError } from '@dash/service-kit';
import { bucketNameProblem, bucketSchemaErrorMessage, newBucketFrom, normalizeMimeTypes } from '../src/bucket-rules';
import { createBucketQuery, listBucketsQuery } from '../src/sql/buckets';

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
    const problem = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e instanceof HttpError ? [e.statusCode, e.message] : e;
      }
      return null;
    };
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
    expect(listBucketsQuery().text).toMatch(/order by name/);
  });
});
