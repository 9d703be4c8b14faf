import { hasSqlDetails, parse } from 'libpg-query';
import { Messages } from '@dash/contracts';
import { HttpError, SqlState } from '@dash/service-kit';
import { statementHeads } from './statements';

/*
 * What a read-only run's text may not do. The run is one simple-protocol query inside our
 * `begin read only`; Postgres refuses every write in that transaction, so the way out is to end it
 * (COMMIT, END, ROLLBACK, ABORT, PREPARE TRANSACTION, ...) and go on in a new transaction made read
 * write (SET TRANSACTION, SET SESSION CHARACTERISTICS, RESET ALL, the read-only settings), where a
 * SECURITY DEFINER function writes as its owner. The text is read with Postgres's own parser
 * (libpg-query, Postgres 17's grammar; WebAssembly, loaded on first use) and any such statement is
 * refused before anything runs.
 *
 * DO and CALL are refused whole. Postgres already refuses a COMMIT or ROLLBACK inside them while our
 * transaction block is open ("invalid transaction termination"), and only a top-level statement
 * refused here could close that block. But their bodies are procedural code (with EXECUTE of text
 * built at run time) that this check cannot read, and transaction control is what a procedure has
 * over a function: a read-only run that needs neither keeps a second line of defence for free.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- libpg-query's parse tree is untyped JSON
type Node = Record<string, any>;

/** The settings that decide whether this transaction, or the session's next, may write. */
const READ_ONLY_SETTINGS = new Set(['transaction_read_only', 'default_transaction_read_only']);

/** Every kind of transaction statement, by the name the refusal gives it (END and ABORT parse as COMMIT and ROLLBACK). */
const TRANSACTION_STATEMENTS: Record<string, string> = {
  TRANS_STMT_BEGIN: 'BEGIN',
  TRANS_STMT_START: 'START TRANSACTION',
  TRANS_STMT_COMMIT: 'COMMIT or END',
  TRANS_STMT_ROLLBACK: 'ROLLBACK or ABORT',
  TRANS_STMT_SAVEPOINT: 'SAVEPOINT',
  TRANS_STMT_RELEASE: 'RELEASE SAVEPOINT',
  TRANS_STMT_ROLLBACK_TO: 'ROLLBACK TO SAVEPOINT',
  TRANS_STMT_PREPARE: 'PREPARE TRANSACTION',
  TRANS_STMT_COMMIT_PREPARED: 'COMMIT PREPARED',
  TRANS_STMT_ROLLBACK_PREPARED: 'ROLLBACK PREPARED',
};

/**
 * The name of what a SET or RESET changes that a read-only run may not: the multi-word forms (SET
 * TRANSACTION ..., SET SESSION CHARACTERISTICS AS TRANSACTION ..., SET TRANSACTION SNAPSHOT), RESET ALL,
 * and the read-only settings whatever the form (SET, SET LOCAL, SET ... TO DEFAULT, RESET).
 */
function refusedSet(set: Node): string | null {
  const name = typeof set.name === 'string' ? set.name : '';
  if (set.kind === 'VAR_RESET_ALL') return 'RESET ALL';
  if (set.kind === 'VAR_SET_MULTI') return `SET ${name}`;
  if (READ_ONLY_SETTINGS.has(name.toLowerCase())) return `${set.kind === 'VAR_RESET' ? 'RESET' : 'SET'} ${name}`;
  return null;
}

/** A top-level statement the run may not hold, by name, or null. */
function refusedStatement(stmt: Node): string | null {
  if (stmt.TransactionStmt) return TRANSACTION_STATEMENTS[stmt.TransactionStmt.kind as string] ?? 'a transaction statement';
  if (stmt.VariableSetStmt) return refusedSet(stmt.VariableSetStmt);
  if (stmt.DiscardStmt?.target === 'DISCARD_ALL') return 'DISCARD ALL';
  if (stmt.DoStmt) return 'DO';
  if (stmt.CallStmt) return 'CALL';
  return null;
}

const lastName = (list: unknown): string | undefined => {
  const last = Array.isArray(list) ? (list.at(-1) as Node | undefined) : undefined;
  return typeof last?.String?.sval === 'string' ? last.String.sval : undefined;
};

/**
 * SET's function forms, anywhere in a statement (a subquery, a CTE, EXPLAIN ANALYZE): set_config of a
 * read-only setting, or of a name only known at run time (computed, or passed by name); and an UPDATE
 * of pg_settings, which its rule turns into set_config.
 */
function refusedCall(node: Node): string | null {
  if (node.FuncCall && lastName(node.FuncCall.funcname) === 'set_config') {
    const setting = (node.FuncCall.args as Node[] | undefined)?.[0]?.A_Const?.sval?.sval;
    if (typeof setting !== 'string') return 'set_config with a setting named at run time';
    if (READ_ONLY_SETTINGS.has(setting.toLowerCase())) return `set_config('${setting}', …)`;
  }
  if (node.UpdateStmt?.relation?.relname === 'pg_settings') return 'UPDATE pg_settings';
  return null;
}

/** A refused call anywhere within the node, or null. A loop, not recursion: `1+1+…+1` nests as deep as it is long. */
function refusedWithin(root: unknown): string | null {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!node || typeof node !== 'object') continue;
    const here = Array.isArray(node) ? null : refusedCall(node as Node);
    if (here) return here;
    for (const child of Object.values(node)) pending.push(child);
  }
  return null;
}

interface RawStmt {
  stmt?: Node;
  stmt_location?: number;
  stmt_len?: number;
}

/**
 * Refuses (400) a read-only run's text that holds transaction control, a change of the read-only
 * settings, DO or CALL, naming the first such statement and marking where it starts; a text the
 * parser cannot read is refused with the parser's syntax error (Postgres would refuse it whole too,
 * and a server of another version must not run what was not checked). Positions are 1-based and count
 * code points, as Postgres's do.
 */
export async function checkReadOnlyText(text: string): Promise<void> {
  let tree: { stmts?: RawStmt[] };
  try {
    tree = (await parse(text)) as { stmts?: RawStmt[] };
  } catch (error) {
    // The parser's cursor counts code points already.
    if (hasSqlDetails(error)) throw new HttpError(400, error.message, SqlState.SyntaxError, { position: Math.max(0, error.sqlDetails.cursorPosition) + 1 });
    // Writing out the tree of `1+1+…+1` (thousands deep) overflows the stack. By name: the error may
    // come from another realm than this module's RangeError (Jest's).
    if ((error as Error | undefined)?.name === 'RangeError') throw new HttpError(400, Messages.readOnlyRunUnchecked);
    throw error;
  }
  const utf8 = Buffer.from(text, 'utf8');
  // The statements' offsets count UTF-8 bytes: as an index of the JS string.
  const index = (byteOffset: number) => utf8.subarray(0, byteOffset).toString('utf8').length;
  for (const raw of tree.stmts ?? []) {
    const stmt = raw.stmt ?? {};
    const refused = refusedStatement(stmt) ?? refusedWithin(stmt);
    if (!refused) continue;
    const from = raw.stmt_location ?? 0;
    const start = index(from);
    const end = raw.stmt_len === undefined ? text.length : index(from + raw.stmt_len);
    // The statement's own first token, past the blanks and comments the parser counts as its start.
    const first = start + (statementHeads(text.slice(start, end))[0]?.start ?? 0);
    throw new HttpError(400, Messages.readOnlyRunRefused(refused), undefined, { position: [...text.slice(0, first)].length + 1 });
  }
}
