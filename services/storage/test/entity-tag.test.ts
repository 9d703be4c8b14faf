import { EntityTagger, HASHED_TAG_MAX_BYTES } from '../src/backend/entity-tag';
import { md5Tag } from './backend-suite';

/** The tag of `bytes` fed to a tagger in chunks of `chunkBytes`. */
function tagOf(bytes: Buffer, chunkBytes = 64 * 1024): string {
  const tagger = new EntityTagger();
  for (let at = 0; at < bytes.length; at += chunkBytes) tagger.update(bytes.subarray(at, at + chunkBytes));
  return tagger.tag();
}

describe('EntityTagger', () => {
  it('tags a body below S3 part size with the quoted MD5 of its bytes, however it is chunked', () => {
    const bytes = Buffer.alloc(HASHED_TAG_MAX_BYTES - 1, 7);
    expect(tagOf(bytes)).toBe(md5Tag(bytes));
    expect(tagOf(bytes, 1000)).toBe(md5Tag(bytes));
    expect(tagOf(Buffer.alloc(0))).toBe(md5Tag(Buffer.alloc(0)));
  });

  it('tags a larger body with its size in hex and a random part, not an MD5', () => {
    const bytes = Buffer.alloc(HASHED_TAG_MAX_BYTES, 7);
    const tag = tagOf(bytes);
    expect(tag).toMatch(/^"500000-[0-9a-f]{32}"$/);
    expect(tag).not.toBe(md5Tag(bytes));
  });

  it('gives two stores of the same large bytes different tags (each version is its own)', () => {
    const bytes = Buffer.alloc(HASHED_TAG_MAX_BYTES + 1, 1);
    expect(tagOf(bytes)).not.toBe(tagOf(bytes));
  });
});
