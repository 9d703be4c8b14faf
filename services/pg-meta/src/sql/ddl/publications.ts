import type { PublicationCreate, PublicationUpdate } from '@dash/contracts';
import { ident, literal, qualified, type QualifiedName } from './names';

/** Publications: names quoted, the published operations one literal built from fixed words. */

type Flags = Pick<PublicationCreate, 'publish_insert' | 'publish_update' | 'publish_delete' | 'publish_truncate'>;
export type PublishFlags = Required<Flags>;

const OPERATIONS: ReadonlyArray<[keyof Flags, string]> = [
  ['publish_insert', 'insert'],
  ['publish_update', 'update'],
  ['publish_delete', 'delete'],
  ['publish_truncate', 'truncate'],
];

const publishOption = (flags: PublishFlags) =>
  `publish = ${literal(OPERATIONS.filter(([key]) => flags[key]).map(([, word]) => word).join(', '))}`;

const tableList = (tables: readonly QualifiedName[]) => tables.map((table) => qualified(table)).join(', ');

/** Every operation is published unless its flag is false. */
export function createPublicationStatement(input: PublicationCreate): string {
  const flags = Object.fromEntries(OPERATIONS.map(([key]) => [key, input[key] ?? true])) as PublishFlags;
  const tables = input.tables.length > 0 ? ` for table ${tableList(input.tables)}` : '';
  return `create publication ${ident(input.name)}${tables} with (${publishOption(flags)})`;
}

/**
 * Tables (replacing the list; an empty list drops the current tables), operations (merged with the
 * current ones), then the new name.
 */
export function updatePublicationStatements(
  current: { name: string; flags: PublishFlags; tables: readonly QualifiedName[] },
  update: PublicationUpdate,
): string[] {
  const publication = ident(current.name);
  const statements: string[] = [];
  if (update.tables !== undefined) {
    if (update.tables.length > 0) statements.push(`alter publication ${publication} set table ${tableList(update.tables)}`);
    else if (current.tables.length > 0) statements.push(`alter publication ${publication} drop table ${tableList(current.tables)}`);
  }
  if (OPERATIONS.some(([key]) => update[key] !== undefined)) {
    const flags = Object.fromEntries(OPERATIONS.map(([key]) => [key, update[key] ?? current.flags[key]])) as PublishFlags;
    statements.push(`alter publication ${publication} set (${publishOption(flags)})`);
  }
  if (update.name !== undefined && update.name !== current.name) statements.push(`alter publication ${publication} rename to ${ident(update.name)}`);
  return statements;
}

export const dropPublicationStatement = (name: string) => `drop publication ${ident(name)}`;
