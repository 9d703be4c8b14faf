import { parseError } from './errors';

/**
 * Deepest nesting of parentheses any parser accepts. PostgREST has no such limit; here it keeps recursive
 * descent far from the JavaScript stack's limit, so a hostile `((((…` is a 400, never a RangeError.
 */
export const MAX_NESTING = 100;

/** A position in one query string parameter, with PostgREST's error reporting for it. */
export class Cursor {
  index = 0;
  private depth = 0;

  constructor(
    readonly input: string,
    /** How PostgREST names the parameter in its message: `select parameter`, `filter`, `logic tree`… */
    private readonly what: string,
  ) {}

  get done(): boolean {
    return this.index >= this.input.length;
  }

  peek(offset = 0): string {
    return this.input.charAt(this.index + offset);
  }

  lookingAt(text: string): boolean {
    return this.input.startsWith(text, this.index);
  }

  /** Consumes `text` if it comes next. */
  take(text: string): boolean {
    if (!this.lookingAt(text)) return false;
    this.index += text.length;
    return true;
  }

  expect(text: string, expecting = `"${text}"`): void {
    if (!this.take(text)) this.fail(expecting);
  }

  /** Consumes what the sticky regular expression `pattern` matches here, if anything. */
  match(pattern: RegExp): string | null {
    pattern.lastIndex = this.index;
    const found = pattern.exec(this.input);
    if (!found) return null;
    this.index += found[0].length;
    return found[0];
  }

  /** The rest of the input, consumed. */
  rest(): string {
    const rest = this.input.slice(this.index);
    this.index = this.input.length;
    return rest;
  }

  end(expecting: string): void {
    if (!this.done) this.fail(expecting);
  }

  /** Runs `parse` one level deeper, refusing input nested deeper than MAX_NESTING. */
  nested<T>(parse: () => T): T {
    if (this.depth >= MAX_NESTING) throw this.error(`nesting deeper than ${MAX_NESTING} levels`);
    this.depth += 1;
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  fail(expecting: string): never {
    const found = this.done ? 'end of input' : JSON.stringify(this.peek());
    throw this.error(`unexpected ${found} expecting ${expecting}`);
  }

  error(details: string, index = this.index) {
    return parseError(this.what, this.input, index, details);
  }
}
