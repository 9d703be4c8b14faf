/**
 * The SQLSTATEs the services tell apart, by Postgres's condition names (appendix "PostgreSQL Error
 * Codes"), so a check reads `SqlState.UniqueViolation` rather than `'23505'`.
 */
export const SqlState = {
  InvalidSqlStatementName: '26000',
  InvalidPassword: '28P01',
  ForeignKeyViolation: '23503',
  UniqueViolation: '23505',
  CheckViolation: '23514',
  SyntaxError: '42601',
  InsufficientPrivilege: '42501',
  UndefinedTable: '42P01',
  DuplicateDatabase: '42P04',
  DuplicateTable: '42P07',
  InvalidObjectDefinition: '42P17',
  ConfigurationLimitExceeded: '53400',
  LockNotAvailable: '55P03',
  QueryCanceled: '57014',
  AdminShutdown: '57P01',
  CrashShutdown: '57P02',
} as const;

export type SqlStateCode = (typeof SqlState)[keyof typeof SqlState];

/**
 * The SQLSTATE `error` carries, if any. Read by shape, not `instanceof pg.DatabaseError`: kysely passes
 * pg's errors through unchanged, and an error made in another realm (Jest's vm) must still count.
 */
function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `error` is a Postgres error with one of `codes`. */
export function hasSqlState(error: unknown, ...codes: SqlStateCode[]): boolean {
  const code = codeOf(error);
  return code !== undefined && (codes as string[]).includes(code);
}

/** 23505: the row would duplicate a unique key (often one a concurrent request inserted first). */
export function isUniqueViolation(error: unknown): boolean {
  return hasSqlState(error, SqlState.UniqueViolation);
}

/**
 * Class 22, data exception: a value Postgres cannot hold (NUL in text, a number out of range, a bad
 * date), which is the sender's mistake whichever statement met it.
 */
export function isDataException(error: unknown): boolean {
  return codeOf(error)?.startsWith('22') === true;
}
