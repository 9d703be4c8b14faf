import { Messages } from '@dash/contracts';
import { EMPTY_BUCKET_FORM, bucketFormOf, digitsOnly, parseMimeTypes, toCreateBucketBody, toUpdateBucketBody, validateBucketForm } from '../src/bucket-form';
import { avatars, invoices } from './fixtures';

describe('bucket form rules', () => {
  it('applies the name rules in the spec order', () => {
    expect(validateBucketForm({ ...EMPTY_BUCKET_FORM, name: '' }).name).toBe(Messages.bucketNameRequired);
    expect(validateBucketForm({ ...EMPTY_BUCKET_FORM, name: '   ' }).name).toBe(Messages.bucketNameRequired);
    expect(validateBucketForm({ ...EMPTY_BUCKET_FORM, name: 'photos ' }).name).toBe(Messages.bucketNameTrailingWhitespace);
    expect(validateBucketForm({ ...EMPTY_BUCKET_FORM, name: 'public' }).name).toBe(Messages.bucketNameReserved);
    // The lowercase hint is not enforced.
    expect(validateBucketForm({ ...EMPTY_BUCKET_FORM, name: 'My_Photos' })).toEqual({});
  });

  it('checks the size limit only when it is enabled', () => {
    expect(validateBucketForm({ ...EMPTY_BUCKET_FORM, name: 'a', limitEnabled: false, limitValue: '' })).toEqual({});
    expect(validateBucketForm({ ...EMPTY_BUCKET_FORM, name: 'a', limitEnabled: true, limitValue: '' }).limitValue).toBe(Messages.bucketSizeLimitMin);
    expect(validateBucketForm({ ...EMPTY_BUCKET_FORM, name: 'a', limitEnabled: true, limitValue: '0' })).toEqual({});
  });

  it('keeps digits only, and splits MIME lists', () => {
    expect(digitsOnly('1-2.5e3 MB')).toBe('1253');
    expect(parseMimeTypes(' image/* ,, text/plain , ')).toEqual(['image/*', 'text/plain']);
    expect(toCreateBucketBody({ ...EMPTY_BUCKET_FORM, name: 'a', mimeTypes: ' , ' }).allowed_mime_types).toBeNull();
  });

  it('edits a bucket from its own values, without the name, which cannot change', () => {
    expect(bucketFormOf(avatars)).toEqual({ name: 'avatars', public: true, limitEnabled: true, limitValue: '2', limitUnit: 'MB', mimeTypes: 'image/*, application/pdf' });
    expect(bucketFormOf(invoices)).toEqual({ ...EMPTY_BUCKET_FORM, name: 'invoices' });
    expect(toUpdateBucketBody(bucketFormOf(avatars))).toEqual({ public: true, file_size_limit: 2097152, allowed_mime_types: ['image/*', 'application/pdf'] });
    expect(toUpdateBucketBody({ ...bucketFormOf(avatars), public: false, limitEnabled: false, mimeTypes: '' })).toEqual({
      public: false,
      file_size_limit: null,
      allowed_mime_types: null,
    });
    // An existing bucket keeps its name, even one the create rules would refuse today.
    expect(validateBucketForm({ ...EMPTY_BUCKET_FORM, name: 'public' }, true)).toEqual({});
    expect(validateBucketForm({ ...EMPTY_BUCKET_FORM, name: 'public', limitEnabled: true }, true).limitValue).toBe(Messages.bucketSizeLimitMin);
  });
});
