import { Messages } from '@dash/contracts';
import { EMPTY_BUCKET_FORM, digitsOnly, parseMimeTypes, toCreateBucketBody, validateBucketForm } from '../src/bucket-form';
import { formatBytes, toBytes } from '../src/sizes';

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

  it('keeps digits only, splits MIME lists and converts units by 1024', () => {
    expect(digitsOnly('1-2.5e3 MB')).toBe('1253');
    expect(parseMimeTypes(' image/* ,, text/plain , ')).toEqual(['image/*', 'text/plain']);
    expect(toBytes(3, 'bytes')).toBe(3);
    expect(toBytes(2, 'KB')).toBe(2048);
    expect(toBytes(2, 'MB')).toBe(2097152);
    expect(toBytes(1, 'GB')).toBe(1073741824);
    expect(formatBytes(2097152)).toBe('2 MB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12)).toBe('12 bytes');
    expect(toCreateBucketBody({ ...EMPTY_BUCKET_FORM, name: 'a', mimeTypes: ' , ' }).allowed_mime_types).toBeNull();
  });
});
