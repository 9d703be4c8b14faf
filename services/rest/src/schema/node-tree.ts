/**
 * Postgres' text form of a parse tree (`pg_node_tree`, as in `pg_rewrite.ev_action`) read just far enough to
 * learn which table column each of a view's columns selects as it is: the top-level query's target entries
 * carry `resorigtbl`/`resorigcol` for a plain column reference (zero for an expression). PostgREST infers a
 * view's keys the same way.
 */

type Value = string | Value[] | NodeValue;
interface NodeValue {
  node: string;
  fields: Map<string, Value[]>;
}

/** Splits the text into tokens: `(`, `)`, `{`, `}` alone, other runs up to white space; `\` escapes a character. */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (/\s/.test(char)) {
      index += 1;
    } else if ('(){}'.includes(char)) {
      tokens.push(char);
      index += 1;
    } else {
      let token = '';
      while (index < text.length && !/\s/.test(text[index]!) && !'(){}'.includes(text[index]!)) {
        if (text[index] === '\\' && index + 1 < text.length) index += 1;
        token += text[index];
        index += 1;
      }
      tokens.push(token);
    }
  }
  return tokens;
}

function parse(tokens: string[]): Value | undefined {
  let at = 0;
  const value = (): Value => {
    const token = tokens[at++]!;
    if (token === '(') {
      const list: Value[] = [];
      while (at < tokens.length && tokens[at] !== ')') list.push(value());
      at += 1;
      return list;
    }
    if (token === '{') {
      const node: NodeValue = { node: tokens[at++] ?? '', fields: new Map() };
      while (at < tokens.length && tokens[at] !== '}') {
        const label = tokens[at++]!;
        const values: Value[] = [];
        while (at < tokens.length && tokens[at] !== '}' && !tokens[at]!.startsWith(':')) values.push(value());
        node.fields.set(label, values);
      }
      at += 1;
      return node;
    }
    return token;
  };
  return tokens.length > 0 ? value() : undefined;
}

const isNode = (value: Value | undefined): value is NodeValue => typeof value === 'object' && value !== null && !Array.isArray(value);

/** For each column number of the view whose rule this is, the table and column it selects unchanged. */
export function viewColumnSources(action: string): Map<number, { rel: number; attnum: number }> {
  const sources = new Map<number, { rel: number; attnum: number }>();
  const tree = parse(tokenize(action));
  const query = Array.isArray(tree) ? tree[0] : tree;
  if (!isNode(query)) return sources;
  const targets = query.fields.get(':targetList')?.[0];
  if (!Array.isArray(targets)) return sources;
  for (const entry of targets) {
    if (!isNode(entry)) continue;
    const field = (name: string) => Number(entry.fields.get(name)?.[0]);
    const [resno, rel, attnum] = [field(':resno'), field(':resorigtbl'), field(':resorigcol')];
    if (rel > 0 && attnum > 0 && entry.fields.get(':resjunk')?.[0] !== 'true') sources.set(resno, { rel, attnum });
  }
  return sources;
}
