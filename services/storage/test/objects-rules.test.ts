import { StorageApiMessages } from '@dash/contracts';
import { attachment, parseRange } from '../src/objects/download';
import { folderPrefix, sortOf } from '../src/objects/list';
import { parentFolder } from '../src/objects/remove';
import { cacheControlOf, contentTypeOf, mimeTypeAllowed, uploadLimit, userMetadataFromHeader, userMetadataOf } from '../src/objects/rules';

/* The pure rules of object operations. */

describe('MIME types', () => {
  it('takes anything when the bucket lists no type', () => {
    expect(mimeTypeAllowed(null, 'application/x-anything')).toBe(true);
    expect(mimeTypeAllowed([], 'text/plain')).toBe(true);
  });

  it('matches exact types and wildcards, ignoring case and parameters', () => {
    const allowed = ['image/*', 'application/pdf'];
    expect(mimeTypeAllowed(allowed, 'image/png')).toBe(true);
    expect(mimeTypeAllowed(allowed, 'IMAGE/SVG+XML')).toBe(true);
    expect(mimeTypeAllowed(allowed, 'application/pdf; charset=binary')).toBe(true);
    expect(mimeTypeAllowed(allowed, 'application/pdfx')).toBe(false);
    expect(mimeTypeAllowed(allowed, 'imagex/png')).toBe(false);
    expect(mimeTypeAllowed(allowed, 'text/plain')).toBe(false);
    expect(mimeTypeAllowed(['*/*'], 'text/plain')).toBe(true);
  });
});

describe('upload descriptions', () => {
  it('reads a bare number of seconds as max-age and defaults to no-cache', () => {
    expect(cacheControlOf('3600')).toBe('max-age=3600');
    expect(cacheControlOf('max-age=60, public')).toBe('max-age=60, public');
    expect(cacheControlOf(undefined)).toBe('no-cache');
    expect(() => cacheControlOf('a\r\nset-cookie: x')).toThrow('The cache control must be printable text of at most 1024 characters');
  });

  it('checks content types and defaults to application/octet-stream', () => {
    expect(contentTypeOf(undefined)).toBe('application/octet-stream');
    expect(contentTypeOf('text/plain;charset=UTF-8')).toBe('text/plain;charset=UTF-8');
    expect(() => contentTypeOf('plain')).toThrow('Invalid content type "plain": use type/subtype (like image/png)');
  });

  it("reads the app's metadata as a JSON object only", () => {
    expect(userMetadataOf('{"a":1}')).toEqual({ a: 1 });
    expect(userMetadataOf({ b: 2 })).toEqual({ b: 2 });
    expect(userMetadataOf(undefined)).toBeNull();
    expect(userMetadataFromHeader(Buffer.from('{"c":3}').toString('base64'))).toEqual({ c: 3 });
    expect(() => userMetadataOf('[1]')).toThrow(StorageApiMessages.invalidMetadata);
    expect(() => userMetadataOf('{oops')).toThrow(StorageApiMessages.invalidMetadata);
  });

  it('applies the lower of the project and bucket limits', () => {
    const bucket = { id: 'b', public: false, allowed_mime_types: null };
    expect(uploadLimit(1000, { ...bucket, file_size_limit: null })).toBe(1000);
    expect(uploadLimit(1000, { ...bucket, file_size_limit: 10 })).toBe(10);
    expect(uploadLimit(1000, { ...bucket, file_size_limit: 5000 })).toBe(1000);
    expect(uploadLimit(1000, { ...bucket, file_size_limit: 0 })).toBe(0);
  });
});

describe('byte ranges', () => {
  it('reads one range, open-ended or from the end', () => {
    expect(parseRange('bytes=0-4', 10)).toEqual({ start: 0, end: 4 });
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=8-100', 10)).toEqual({ start: 8, end: 9 });
  });

  it('sends everything for no, several or malformed ranges, and refuses ranges past the end', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-1,3-4', 10)).toBeNull();
    expect(parseRange('items=0-1', 10)).toBeNull();
    expect(parseRange('bytes=5-2', 10)).toBeNull();
    expect(parseRange('bytes=-', 10)).toBeNull();
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});

describe('names and paths', () => {
  it('names attachments safely, whatever their characters', () => {
    expect(attachment('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachment('a "b"\\%.txt')).toBe(`attachment; filename="a _b___.txt"; filename*=UTF-8''a%20%22b%22%5C%25.txt`);
    expect(attachment("été (1)'s.txt")).toBe(`attachment; filename="_t_ (1)'s.txt"; filename*=UTF-8''%C3%A9t%C3%A9%20%281%29%27s.txt`);
  });

  it('turns folder paths into listing prefixes and finds parents', () => {
    expect(folderPrefix('')).toBe('');
    expect(folderPrefix('a/b')).toBe('a/b/');
    expect(folderPrefix('a/b/')).toBe('a/b/');
    expect(() => folderPrefix('a/../b')).toThrow('The object name must not contain "." or ".." segments');
    expect(parentFolder('a/b/c.txt')).toBe('a/b/');
    expect(parentFolder('a/b/')).toBe('a/');
    expect(parentFolder('top.txt')).toBe('');
  });

  it('sorts by the contract columns only', () => {
    expect(sortOf(undefined)).toEqual({ column: 'name', order: 'asc' });
    expect(sortOf({ column: 'created_at', order: 'DESC' })).toEqual({ column: 'created_at', order: 'desc' });
    expect(() => sortOf({ column: 'metadata->size' })).toThrow(StorageApiMessages.badSortColumn('metadata->size'));
  });
});
