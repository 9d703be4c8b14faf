import { folderPathError, objectNameError } from '../src/object-keys';

describe('object names', () => {
  it.each(['a.txt', 'folder/a b (1).png', 'ünïcode/日本.txt', "it's;--/x", '.emptyFolderPlaceholder', 'a/..b/c..'])('accepts %j', (name) => {
    expect(objectNameError(name)).toBeNull();
  });

  it.each([
    ['', 'The object name must not be empty'],
    ['/etc/passwd', 'The object name must not start with a slash'],
    ['a/../../etc/passwd', 'The object name must not contain "." or ".." segments'],
    ['..', 'The object name must not contain "." or ".." segments'],
    ['a/./b', 'The object name must not contain "." or ".." segments'],
    ['a//b', 'The object name must not contain empty segments'],
    ['a/', 'The object name must not contain empty segments'],
    ['a\\..\\b', 'The object name must not contain a backslash'],
    ['a\u0000.txt', 'The object name must not contain control characters'],
    ['a\nb', 'The object name must not contain control characters'],
    ['x'.repeat(1025), 'The object name must be at most 1024 bytes'],
    ['\ud800', 'The object name must be valid unicode'],
  ])('refuses %j', (name, message) => {
    expect(objectNameError(name)).toBe(message);
  });

  it('takes the root and folders with or without a trailing slash as folder paths', () => {
    expect(folderPathError('')).toBeNull();
    expect(folderPathError('a/b/')).toBeNull();
    expect(folderPathError('a/../b')).not.toBeNull();
  });
});
