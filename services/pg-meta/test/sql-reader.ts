/*
 * A strict reader of the statements our policy, role and schema builders write, for the property
 * tests: it walks a statement piece by piece, and each quoted identifier or literal is read back the
 * way Postgres reads it ("" and '' are one quote; standard_conforming_strings on). Anything it does not
 * expect at a position is an error, so a test that reads a whole statement proves its exact shape and
 * that every name and value in it is the one that was given.
 */
export class SqlReader {
  private i = 0;

  constructor(readonly text: string) {}

  private fail(what: string): never {
    throw new Error(`expected ${what} at ${this.i} of ${JSON.stringify(this.text)}`);
  }

  /** Whether `piece` comes next (nothing is consumed). */
  at(piece: string): boolean {
    return this.text.startsWith(piece, this.i);
  }

  /** Consumes `piece` if it comes next. */
  take(piece: string): boolean {
    if (!this.at(piece)) return false;
    this.i += piece.length;
    return true;
  }

  /** Consumes exactly `piece`. */
  expect(piece: string): this {
    if (!this.take(piece)) this.fail(JSON.stringify(piece));
    return this;
  }

  private quoted(quote: string): string {
    if (this.text[this.i] !== quote) this.fail(quote === '"' ? 'a quoted identifier' : 'a string literal');
    let value = '';
    let j = this.i + 1;
    for (;;) {
      const close = this.text.indexOf(quote, j);
      if (close < 0) this.fail(`the closing ${quote}`);
      value += this.text.slice(j, close);
      if (this.text[close + 1] === quote) {
        value += quote;
        j = close + 2;
      } else {
        this.i = close + 1;
        return value;
      }
    }
  }

  /** A "quoted identifier", read back. */
  ident(): string {
    return this.quoted('"');
  }

  /** A 'string literal', read back. */
  literal(): string {
    return this.quoted("'");
  }

  /** `"a", "b"`: identifiers separated by `, `. */
  identList(): string[] {
    const names = [this.ident()];
    while (this.take(', ')) names.push(this.ident());
    return names;
  }

  /** One of `words`, the longest that matches. */
  oneOf<T extends string>(words: readonly T[]): T {
    const word = [...words].sort((a, b) => b.length - a.length).find((w) => this.at(w));
    if (word === undefined) this.fail(`one of ${words.join(', ')}`);
    this.i += word.length;
    return word;
  }

  /** `(text)` where `text` must be exactly the given expression. */
  parenthesised(expression: string): this {
    return this.expect('(').expect(expression).expect(')');
  }

  /** An integer, possibly negative. */
  integer(): number {
    const match = /^-?[0-9]+/.exec(this.text.slice(this.i));
    if (!match) this.fail('an integer');
    this.i += match[0].length;
    return Number(match[0]);
  }

  done(): boolean {
    return this.i === this.text.length;
  }

  end(): void {
    if (!this.done()) this.fail('the end of the statement');
  }
}
