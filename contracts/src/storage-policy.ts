/**
 * Which bucket a storage policy belongs to (storage spec, section 3: "a policy belongs to a bucket when
 * its expression contains a bucket_id equality with a quoted bucket name; otherwise it is Ungrouped").
 *
 * The expression is tokenized the way Postgres lexes it (so a bucket name full of quotes, backslashes
 * or the words `bucket_id =` is just the content of one literal) and the policy is grouped only when
 * `bucket_id = '<name>'` is one of the conjuncts of its top-level AND chain: a comparison under OR or
 * NOT does not restrict the policy to that bucket, so it does not group it.
 */

type Token =
  | { kind: 'string'; value: string }
  /** `quoted` identifiers keep their case and are never keywords. */
  | { kind: 'ident'; value: string; quoted: boolean }
  | { kind: 'number' | 'op' | 'punct' | 'param'; value: string };

/** Thrown for text Postgres itself would not lex (an unterminated literal, say): such a policy is ungrouped. */
class LexError extends Error {}

const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT_REST = /[A-Za-z0-9_$\u0080-\uffff]/;
const OP_CHARS = '+-*/<>=~!@#%^&|`?';
const NUMBER = /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?)/;
const DOLLAR_TAG = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

/** Postgres folds unquoted identifiers to lower case (ASCII letters only). */
const fold = (name: string) => name.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Reads `'...'` from `start` (at the quote); `''` is a quote, and E-strings also take backslash escapes. */
function readQuoted(text: string, start: number, quote: string, backslashEscapes: boolean): { body: string; end: number } {
  let body = '';
  let i = start + 1;
  for (;;) {
    if (i >= text.length) throw new LexError('unterminated literal');
    const c = text[i]!;
    if (c === quote) {
      if (text[i + 1] === quote) {
        body += quote;
        i += 2;
        continue;
      }
      return { body, end: i + 1 };
    }
    if (c === '\\' && backslashEscapes) {
      const escaped = readBackslashEscape(text, i);
      body += escaped.value;
      i = escaped.end;
      continue;
    }
    body += c;
    i += 1;
  }
}

/** One escape of an E'' string: \b \f \n \r \t, octal, \x hex, \u and \U code points, else the character itself. */
function readBackslashEscape(text: string, at: number): { value: string; end: number } {
  const rest = text.slice(at + 1);
  const simple: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
  const first = rest[0];
  if (first === undefined) throw new LexError('unterminated literal');
  if (simple[first] !== undefined) return { value: simple[first]!, end: at + 2 };
  const forms: [RegExp, number][] = [
    [/^[0-7]{1,3}/, 8],
    [/^x([0-9a-fA-F]{1,2})/, 16],
    [/^u([0-9a-fA-F]{4})/, 16],
    [/^U([0-9a-fA-F]{8})/, 16],
  ];
  for (const [pattern, radix] of forms) {
    const match = pattern.exec(rest);
    if (match) return { value: codePoint(parseInt(match[1] ?? match[0], radix)), end: at + 1 + match[0].length };
  }
  // Any other character (a quote or a backslash included) stands for itself; keep surrogate pairs whole.
  const char = String.fromCodePoint(rest.codePointAt(0)!);
  return { value: char, end: at + 1 + char.length };
}

function codePoint(value: number): string {
  if (value > 0x10ffff) throw new LexError('invalid code point');
  return String.fromCodePoint(value);
}

/** Decodes the escapes of a U&'...' string or U&"..." identifier (`\XXXX`, `\+XXXXXX`, the escape doubled). */
function decodeUnicodeEscapes(body: string, escape: string): string {
  let out = '';
  for (let i = 0; i < body.length; ) {
    const c = body[i]!;
    if (c !== escape) {
      out += c;
      i += 1;
    } else if (body[i + 1] === escape) {
      out += escape;
      i += 2;
    } else {
      const match = /^(?:\+([0-9a-fA-F]{6})|([0-9a-fA-F]{4}))/.exec(body.slice(i + 1));
      if (!match) throw new LexError('invalid Unicode escape');
      out += codePoint(parseInt(match[1] ?? match[2]!, 16));
      i += 1 + match[0].length;
    }
  }
  return out;
}

/** Whitespace containing a newline, then a quote: Postgres joins such string constants into one. */
const CONTINUATION = /^[ \t\f\r]*\n[\s]*'/;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const rest = text.slice(i);
    if (/\s/.test(c)) {
      i += 1;
    } else if (rest.startsWith('--')) {
      const newline = text.indexOf('\n', i);
      i = newline === -1 ? text.length : newline + 1;
    } else if (rest.startsWith('/*')) {
      i = skipBlockComment(text, i);
    } else if (c === "'" || (/[eEnN]/.test(c) && text[i + 1] === "'")) {
      // E'' takes backslash escapes; N'' (national character) is a plain literal.
      const backslashEscapes = c === 'e' || c === 'E';
      let literal = readQuoted(text, c === "'" ? i : i + 1, "'", backslashEscapes);
      let value = literal.body;
      for (let more = CONTINUATION.exec(text.slice(literal.end)); more; more = CONTINUATION.exec(text.slice(literal.end))) {
        literal = readQuoted(text, literal.end + more[0].length - 1, "'", backslashEscapes);
        value += literal.body;
      }
      tokens.push({ kind: 'string', value });
      i = literal.end;
    } else if (/^[uU]&['"]/.test(rest)) {
      const quote = text[i + 2]!;
      const literal = readQuoted(text, i + 2, quote, false);
      let end = literal.end;
      let escape = '\\';
      const uescape = /^\s*uescape\s*'([^'])'/i.exec(text.slice(end));
      if (uescape) {
        escape = uescape[1]!;
        end += uescape[0].length;
      }
      const value = decodeUnicodeEscapes(literal.body, escape);
      tokens.push(quote === "'" ? { kind: 'string', value } : { kind: 'ident', value, quoted: true });
      i = end;
    } else if (c === '"') {
      const identifier = readQuoted(text, i, '"', false);
      tokens.push({ kind: 'ident', value: identifier.body, quoted: true });
      i = identifier.end;
    } else if (c === '$') {
      const tag = DOLLAR_TAG.exec(rest);
      if (tag) {
        const close = text.indexOf(tag[0], i + tag[0].length);
        if (close === -1) throw new LexError('unterminated dollar-quoted string');
        tokens.push({ kind: 'string', value: text.slice(i + tag[0].length, close) });
        i = close + tag[0].length;
      } else {
        const param = /^\$\d+/.exec(rest);
        if (!param) throw new LexError('unexpected $');
        tokens.push({ kind: 'param', value: param[0] });
        i += param[0].length;
      }
    } else if (IDENT_START.test(c)) {
      let end = i + 1;
      while (end < text.length && IDENT_REST.test(text[end]!)) end += 1;
      tokens.push({ kind: 'ident', value: fold(text.slice(i, end)), quoted: false });
      i = end;
    } else if (NUMBER.test(rest)) {
      const number = NUMBER.exec(rest)![0];
      tokens.push({ kind: 'number', value: number });
      i += number.length;
    } else if (rest.startsWith('::')) {
      tokens.push({ kind: 'punct', value: '::' });
      i += 2;
    } else if ('()[],.;:'.includes(c)) {
      tokens.push({ kind: 'punct', value: c });
      i += 1;
    } else if (OP_CHARS.includes(c)) {
      const op = readOperator(text, i);
      tokens.push({ kind: 'op', value: op });
      i += op.length;
    } else {
      throw new LexError(`unexpected character ${c}`);
    }
  }
  return tokens;
}

/** Block comments nest in Postgres. */
function skipBlockComment(text: string, start: number): number {
  let depth = 0;
  let i = start;
  do {
    if (text.startsWith('/*', i)) {
      depth += 1;
      i += 2;
    } else if (text.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
    } else if (i >= text.length) {
      throw new LexError('unterminated comment');
    } else {
      i += 1;
    }
  } while (depth > 0);
  return i;
}

/**
 * The longest run of operator characters, cut before a comment start; a trailing + or - is split off
 * unless the operator has one of ~!@#%^&|`? (Postgres's rule, so `=-1` is `=` then `-1`).
 */
function readOperator(text: string, start: number): string {
  let end = start;
  while (end < text.length && OP_CHARS.includes(text[end]!) && !text.startsWith('--', end) && !text.startsWith('/*', end)) end += 1;
  let op = text.slice(start, end);
  if (op.length > 1 && !/[~!@#%^&|`?]/.test(op)) op = op.replace(/[+-]+$/, '') || op[0]!;
  return op;
}

const isKeyword = (token: Token | undefined, word: string) => token?.kind === 'ident' && !token.quoted && token.value === word;
const isPunct = (token: Token | undefined, value: string) => token?.kind === 'punct' && token.value === value;

/** How a token changes the nesting depth: brackets, and CASE ... END, whose WHEN a AND b is not a conjunction. */
function depthChange(token: Token): number {
  if (isPunct(token, '(') || isPunct(token, '[') || isKeyword(token, 'case')) return 1;
  if (isPunct(token, ')') || isPunct(token, ']') || isKeyword(token, 'end')) return -1;
  return 0;
}

/** Splits at top-level occurrences of `isSeparator`; null when the brackets do not balance. */
function splitTopLevel(tokens: Token[], isSeparator: (token: Token, index: number) => boolean): Token[][] | null {
  const parts: Token[][] = [[]];
  let depth = 0;
  for (const [index, token] of tokens.entries()) {
    if (depth === 0 && isSeparator(token, index)) {
      parts.push([]);
      continue;
    }
    depth += depthChange(token);
    if (depth < 0) return null;
    parts[parts.length - 1]!.push(token);
  }
  return depth === 0 ? parts : null;
}

/** Removes parentheses that enclose the whole token list, however many. */
function stripParens(tokens: Token[]): Token[] {
  while (isPunct(tokens[0], '(') && isPunct(tokens[tokens.length - 1], ')')) {
    let depth = 0;
    const closesAtEnd = tokens.every((token, index) => {
      depth += depthChange(token);
      return depth > 0 || index === tokens.length - 1;
    });
    if (!closesAtEnd) break;
    tokens = tokens.slice(1, -1);
  }
  return tokens;
}

/** The conjuncts of the top-level AND chain, nested chains in parentheses flattened. */
function conjuncts(tokens: Token[]): Token[][] {
  const inner = stripParens(tokens);
  const disjuncts = splitTopLevel(inner, (token) => isKeyword(token, 'or'));
  if (!disjuncts || disjuncts.length > 1) return [inner];
  // The AND of `x BETWEEN a AND b` belongs to BETWEEN.
  let betweenOpen = false;
  const parts = splitTopLevel(inner, (token) => {
    if (isKeyword(token, 'between')) betweenOpen = true;
    if (!isKeyword(token, 'and')) return false;
    if (betweenOpen) {
      betweenOpen = false;
      return false;
    }
    return true;
  });
  if (!parts || parts.length === 1) return [inner];
  return parts.flatMap(conjuncts);
}

/** Words that continue a type name: `character varying`, `double precision`, `timestamp with time zone`. */
const TYPE_WORDS = new Set(['varying', 'precision', 'with', 'without', 'time', 'zone']);

/**
 * A type name after `::` or `AS`: a dotted name, then type words, modifiers such as `(255)` and `[]`s.
 * Nothing else, so `'x'::text IS NULL` is not taken for a cast with a long type name.
 */
function isTypeName(tokens: Token[]): boolean {
  if (tokens[0]?.kind !== 'ident') return false;
  let i = 1;
  for (; isPunct(tokens[i], '.'); i += 2) if (tokens[i + 1]?.kind !== 'ident') return false;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (token.kind === 'ident' && !token.quoted && TYPE_WORDS.has(token.value)) {
      i += 1;
    } else if (isPunct(token, '(')) {
      for (i += 1; tokens[i]?.kind === 'number' || isPunct(tokens[i], ','); ) i += 1;
      if (!isPunct(tokens[i], ')')) return false;
      i += 1;
    } else if (isPunct(token, '[')) {
      i += tokens[i + 1]?.kind === 'number' ? 2 : 1;
      if (!isPunct(tokens[i], ']')) return false;
      i += 1;
    } else {
      return false;
    }
  }
  return true;
}

/** An operand without its enclosing parentheses and casts (`x::text`, `CAST(x AS text)`). */
function operandCore(tokens: Token[]): Token[] {
  for (;;) {
    const inner = stripParens(tokens);
    if (isKeyword(inner[0], 'cast') && isPunct(inner[1], '(') && isPunct(inner[inner.length - 1], ')')) {
      const parts = splitTopLevel(inner.slice(2, -1), (token) => isKeyword(token, 'as'));
      if (parts && parts.length === 2 && isTypeName(parts[1]!)) {
        tokens = parts[0]!;
        continue;
      }
    }
    const castParts = splitTopLevel(inner, (token) => isPunct(token, '::'));
    if (castParts && castParts.length > 1 && castParts.slice(1).every(isTypeName)) {
      tokens = castParts[0]!;
      continue;
    }
    return inner;
  }
}

/** `bucket_id`, optionally qualified (`objects.bucket_id`, `"storage"."objects"."bucket_id"`). */
function isBucketIdColumn(tokens: Token[]): boolean {
  const last = tokens[tokens.length - 1];
  if (last?.kind !== 'ident' || last.value !== 'bucket_id') return false;
  return tokens.every((token, index) => (index % 2 === 0 ? token.kind === 'ident' : isPunct(token, '.'))) && tokens.length % 2 === 1;
}

function bucketOfComparison(tokens: Token[]): string | null {
  const sides = splitTopLevel(tokens, (token) => token.kind === 'op' && token.value === '=');
  if (!sides || sides.length !== 2) return null;
  const [left, right] = sides.map(operandCore) as [Token[], Token[]];
  for (const [column, literal] of [
    [left, right],
    [right, left],
  ]) {
    if (isBucketIdColumn(column!) && literal!.length === 1 && literal![0]!.kind === 'string') return literal![0]!.value;
  }
  return null;
}

/** The bucket a policy expression (a USING or WITH CHECK text) is restricted to, or null: Ungrouped. */
export function policyBucket(expression: string | null | undefined): string | null {
  if (!expression) return null;
  let tokens: Token[];
  try {
    tokens = tokenize(expression);
  } catch (error) {
    if (error instanceof LexError) return null;
    throw error;
  }
  for (const conjunct of conjuncts(tokens)) {
    const bucket = bucketOfComparison(conjunct);
    if (bucket !== null) return bucket;
  }
  return null;
}
