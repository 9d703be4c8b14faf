import type { IndexCreate, IndexMethod } from '@dash/contracts';
import { ident, qualified, type QualifiedName } from './names';

const METHOD: Record<IndexMethod, string> = { btree: 'btree', hash: 'hash', gist: 'gist', gin: 'gin', brin: 'brin', spgist: 'spgist' };

/** `create [unique] index` on the table's columns with an access method (a fixed keyword). */
export function createIndexStatement(table: QualifiedName, input: IndexCreate): string {
  const columns = input.columns.map((column) => ident(column)).join(', ');
  return `create ${input.unique ? 'unique ' : ''}index ${ident(input.name)} on ${qualified(table)} using ${METHOD[input.method]} (${columns})`;
}

export const dropIndexStatement = (index: QualifiedName) => `drop index ${qualified(index)}`;
