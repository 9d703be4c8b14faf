import type pg from 'pg';
import type { Statement } from '../query/sql';

/** A statement's result in a batch: its rows, each column as the text Postgres sent (null for SQL NULL). */
export type BatchRows = Array<Record<string, string | null>>;

/** The messages of `pg`'s connection a batch sends (its extended-protocol writer). */
interface WireConnection {
  stream: { cork?: () => void; uncork?: () => void };
  parse(message: { text: string }): void;
  bind(message: { values: Array<string | null> }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string; rows: number }): void;
  sync(): void;
}

interface FieldMessage {
  fields: Array<{ name: string }>;
}

/**
 * Statements run in one round trip: each is parsed, bound (values as parameters, never in the text) and
 * executed, then one Sync ends them all. Postgres runs them in order; the first failure skips the rest up
 * to the Sync, so a statement never runs after one before it failed (a refused role switch stops the
 * request's own statement). `pg` sends a query and waits for its answer before the next; a request's
 * begin, settings, statement and commit as separate queries cost a round trip each, which under load is
 * most of what the service adds to the statement's own time.
 *
 * Used through `runBatch`, as a `pg` custom query (the interface `pg-cursor` uses): columns are the text
 * Postgres sent, unparsed (the data API's statements answer text and counts, read as they come).
 */
class StatementBatch {
  readonly results: BatchRows[] = [[]];
  private names: string[] = [];
  private error: Error | undefined;
  callback: ((error: Error | undefined, results?: BatchRows[]) => void) | undefined;

  constructor(private readonly statements: readonly Statement[]) {}

  submit(connection: WireConnection): null {
    // One write for every message (as `pg` does for its own extended queries).
    connection.stream.cork?.();
    try {
      for (const statement of this.statements) {
        connection.parse({ text: statement.text });
        connection.bind({ values: statement.values });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '', rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: FieldMessage): void {
    this.names = message.fields.map((field) => field.name);
  }

  handleDataRow(message: { fields: Array<string | null> }): void {
    const row: Record<string, string | null> = {};
    message.fields.forEach((value, i) => (row[this.names[i]!] = value));
    this.results[this.results.length - 1]!.push(row);
  }

  handleCommandComplete(): void {
    this.names = [];
    if (this.results.length < this.statements.length) this.results.push([]);
  }

  handleEmptyQuery(): void {
    this.handleCommandComplete();
  }

  // `pg` detaches the query on an error: its ReadyForQuery then reaches no one, so the error ends the batch.
  handleError(error: Error): void {
    this.error ??= error;
    this.finish();
  }

  handleReadyForQuery(): void {
    this.finish();
  }

  private finish(): void {
    const callback = this.callback;
    this.callback = undefined;
    callback?.(this.error, this.results);
  }
}

/** Runs `statements` in one round trip on `client` (see StatementBatch): each one's rows, in order; rejects with the first failure. */
export function runBatch(client: pg.ClientBase, statements: readonly Statement[]): Promise<BatchRows[]> {
  return new Promise((resolve, reject) => {
    const batch = new StatementBatch(statements);
    batch.callback = (error, results) => (error ? reject(error) : resolve(results!));
    client.query(batch as unknown as pg.Submittable);
  });
}
