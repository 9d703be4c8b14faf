import { createHash, randomBytes, type Hash } from 'node:crypto';

/**
 * Bodies below this size get the MD5 of their bytes as entity tag, as S3 gives a single-part upload;
 * larger ones a tag of their own (see `EntityTagger`). It is S3's smallest multipart part, where the
 * S3 backend's tags stop being an MD5 too, so both backends tag the same sizes the same way.
 */
export const HASHED_TAG_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The entity tag of a body seen chunk by chunk: the quoted MD5 of a body under HASHED_TAG_MAX_BYTES,
 * else `"<size in hex>-<128 random bits>"`, made once per stored version. MD5 runs at about 0.5 GB/s on
 * one core, slower than the disk and the network together, so hashing a large upload would set its
 * speed; clients only compare tags for equality (a dash marks a tag that is not an MD5, as S3's
 * multipart tags), and the tag is kept with the bytes, so it stays the same as long as they do.
 */
export class EntityTagger {
  private md5: Hash | null = createHash('md5');
  private bytes = 0;

  update(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes >= HASHED_TAG_MAX_BYTES) this.md5 = null;
    this.md5?.update(chunk);
  }

  /** The tag of the bytes seen so far; call once, at the end. */
  tag(): string {
    return this.md5 ? `"${this.md5.digest('hex')}"` : `"${this.bytes.toString(16)}-${randomBytes(16).toString('hex')}"`;
  }
}
