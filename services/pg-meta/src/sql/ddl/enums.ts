import type { EnumTypeCreate, EnumTypeUpdate } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import { ident, literal, MAX_IDENTIFIER_BYTES, qualified, type QualifiedName } from './names';

/** Enumerated types: names quoted, labels literals. */

/** A label as a literal; Postgres keeps at most 63 bytes of one and refuses longer ones. */
export function enumLabel(label: string): string {
  if (Buffer.byteLength(label, 'utf8') > MAX_IDENTIFIER_BYTES) throw badRequest(`The value "${label}" is longer than ${MAX_IDENTIFIER_BYTES} bytes`);
  return literal(label);
}

export function createEnumStatements(input: EnumTypeCreate): string[] {
  const type = qualified(input);
  const statements = [`create type ${type} as enum (${input.values.map(enumLabel).join(', ')})`];
  if (input.comment) statements.push(`comment on type ${type} is ${literal(input.comment)}`);
  return statements;
}

/** Renamed labels, then new labels (in order, each after `after` or at the end), then the type's new name. */
export function updateEnumStatements(current: QualifiedName, update: EnumTypeUpdate): string[] {
  const type = qualified(current);
  const statements: string[] = [];
  for (const { from, to } of update.rename_values ?? []) statements.push(`alter type ${type} rename value ${enumLabel(from)} to ${enumLabel(to)}`);
  for (const { value, after } of update.add_values ?? []) {
    statements.push(`alter type ${type} add value ${enumLabel(value)}${after !== undefined ? ` after ${enumLabel(after)}` : ''}`);
  }
  if (update.name !== undefined && update.name !== current.name) statements.push(`alter type ${type} rename to ${ident(update.name)}`);
  return statements;
}

export const dropTypeStatement = (type: QualifiedName, cascade: boolean) => `drop type ${qualified(type)} ${cascade ? 'cascade' : 'restrict'}`;
