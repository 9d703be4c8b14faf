import { badRequest, quoteIdent, quoteLiteral } from '@dash/service-kit';

/** Postgres keeps at most NAMEDATALEN - 1 bytes of a name and silently cuts longer ones. */
export const MAX_IDENTIFIER_BYTES = 63;

/** Replies to DDL input that is wrong before Postgres sees it. */
export const DdlMessages = {
  nameTooLong: (name: string) => `The name "${name}" is longer than ${MAX_IDENTIFIER_BYTES} bytes`,
  nameEmpty: 'A name cannot be empty',
  nulCharacter: 'Text cannot contain the NUL character',
  invalidType: (type: string) => `"${type}" is not a valid type name`,
  identityNotInteger: (type: string) => `Identity applies only to integer types (int2, int4, int8), not ${type}`,
  identityWithDefault: 'An identity column cannot have a default value',
  invalidExpression: (what: string, reason: string) => `The ${what} is not a single SQL expression: ${reason}`,
  tableNotFound: (id: number | string) => `Table with id ${id} not found`,
  columnNotFound: (id: string) => `Column with id ${id} not found`,
} as const;

/**
 * A quoted identifier. Empty names, NUL characters and names longer than Postgres keeps are refused
 * with a 400, so a name always round-trips exactly.
 */
export function ident(name: string): string {
  if (name.length === 0) throw badRequest(DdlMessages.nameEmpty);
  if (name.includes('\u0000')) throw badRequest(DdlMessages.nulCharacter);
  if (Buffer.byteLength(name, 'utf8') > MAX_IDENTIFIER_BYTES) throw badRequest(DdlMessages.nameTooLong(name));
  return quoteIdent(name);
}

export interface QualifiedName {
  schema: string;
  name: string;
}

/** `"schema"."name"` */
export function qualified(table: QualifiedName): string {
  return `${ident(table.schema)}.${ident(table.name)}`;
}

/** A quoted string literal; NUL (which Postgres text cannot hold) is a 400. */
export function literal(value: string): string {
  if (value.includes('\u0000')) throw badRequest(DdlMessages.nulCharacter);
  return quoteLiteral(value);
}

/** `'text'`, or `null` to remove a comment. */
export function commentValue(comment: string | null): string {
  return comment === null ? 'null' : literal(comment);
}
