import { PostgrestError } from '../query/errors';
import { relationKey, type Routine, type SchemaCache } from '../schema/types';

/** How `/rpc/<fn>` was called: the method, the body's media type (POST) and `Prefer: params=single-object`. */
export interface CallOptions {
  method: 'GET' | 'HEAD' | 'POST';
  /** The request's media type without parameters (`application/json`, `text/plain`...); POST only. */
  contentType?: string;
  singleObject?: boolean;
}

/** The single-argument body media types PostgREST passes whole to a function's one parameter of that type. */
const SINGLE_BODY: Record<string, string[]> = {
  'application/json': ['json', 'jsonb'],
  'text/plain': ['text'],
  'text/xml': ['xml'],
  'application/octet-stream': ['bytea'],
};
const RAW_BODIES: Record<string, string> = { 'text/plain': 'text', 'text/xml': 'xml', 'application/octet-stream': 'bytea' };

/**
 * Chooses the overload `/rpc/<name>` calls, as PostgREST 12 does: a function matches when the argument
 * names cover its parameters without defaults and name no other parameter; failing that, a function whose
 * one parameter takes the raw body of a POST (json/jsonb for JSON, text, xml, bytea). None: PGRST202 (404);
 * more than one: PGRST203 (300).
 */
export function resolveRoutine(cache: SchemaCache, schema: string, name: string, argumentNames: string[], options: CallOptions): Routine {
  const overloads = cache.routines.get(relationKey(schema, name)) ?? [];
  const post = options.method === 'POST';
  const contentType = options.contentType ?? 'application/json';
  const keys = new Set(argumentNames);
  const matching: Routine[] = [];
  const fallback: Routine[] = [];
  for (const routine of overloads) {
    if (matchesArguments(routine, keys, options.singleObject ?? false, post, contentType)) matching.push(routine);
    else if (post && routine.parameters.length === 1 && (SINGLE_BODY[contentType] ?? []).includes(routine.parameters[0].type)) fallback.push(routine);
  }
  const found = matching.length > 0 ? matching : fallback;
  if (found.length === 1) return found[0];
  if (found.length > 1) throw ambiguous(found);
  throw notFound(cache, schema, name, [...keys], options, overloads);
}

function matchesArguments(routine: Routine, keys: Set<string>, singleObject: boolean, post: boolean, contentType: string): boolean {
  const parameters = routine.parameters;
  if (singleObject) return parameters.length === 1 && ['json', 'jsonb'].includes(parameters[0].type);
  if (parameters.length === 0) return keys.size === 0 && !(post && contentType in RAW_BODIES);
  const required = parameters.filter((parameter) => !parameter.hasDefault).map((parameter) => parameter.name);
  const names = new Set(parameters.map((parameter) => parameter.name));
  return required.every((parameter) => keys.has(parameter)) && [...keys].every((key) => names.has(key));
}

function ambiguous(routines: Routine[]): PostgrestError {
  const candidates = routines.map((routine) =>
    `${routine.schema}.${routine.name}(${routine.parameters.map((parameter) => `${parameter.name} => ${parameter.type}`).join(', ')})`);
  return new PostgrestError(
    300, 'PGRST203', `Could not choose the best candidate function between: ${candidates.join(', ')}`, null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  );
}

function notFound(cache: SchemaCache, schema: string, name: string, keys: string[], options: CallOptions, overloads: Routine[]): PostgrestError {
  const fn = `${schema}.${name}`;
  const post = options.method === 'POST';
  const contentType = options.contentType ?? 'application/json';
  const listed = keys.join(', ');
  const withParameters = (text: string) => (keys.length === 0 ? ' without parameters' : text);
  const onlySingle = (options.singleObject ?? false) || (post && contentType in RAW_BODIES);
  let searched: string;
  if (options.singleObject) searched = ' with a single json/jsonb parameter';
  else if (post && contentType in RAW_BODIES) searched = ` with a single unnamed ${RAW_BODIES[contentType]} parameter`;
  else {
    searched = withParameters(` with parameter${keys.length > 1 ? 's' : ''} ${listed}`);
    if (post && contentType === 'application/json') searched += ' or with a single unnamed json/jsonb parameter';
  }
  let hint: string | null = null;
  if (!onlySingle) {
    const suggestion = overloads.length === 0
      ? closest(name, [...cache.routines.values()].flat().filter((routine) => routine.schema === schema).map((routine) => routine.name))
      : closest(argumentList(keys), overloads.map((routine) => argumentList(routine.parameters.map((parameter) => parameter.name))));
    if (suggestion !== null) hint = `Perhaps you meant to call the function ${schema}.${overloads.length === 0 ? '' : name}${suggestion}`;
  }
  return new PostgrestError(
    404, 'PGRST202', `Could not find the function ${fn}${onlySingle ? '' : withParameters(`(${listed})`)} in the schema cache`,
    `Searched for the function ${fn}${searched}, but no matches were found in the schema cache.`, hint,
  );
}

const argumentList = (names: string[]) => `(${[...names].sort().join(', ')})`;

/**
 * The candidate most like `query`, if any is alike enough: PostgREST's fuzzy set match (the cosine of
 * the bigram/trigram counts picks candidates, a Levenshtein ratio of at least 1/3 the winner).
 */
function closest(query: string, candidates: string[]): string | null {
  const unique = [...new Set(candidates)];
  for (const size of [3, 2]) {
    const grams = gramCounts(query, size);
    const scored = unique
      .map((candidate) => ({ candidate, cosine: cosine(grams, gramCounts(candidate, size)) }))
      .filter((entry) => entry.cosine > 0);
    if (scored.length === 0) continue;
    const ranked = scored
      .map(({ candidate }) => ({ candidate, score: similarity(query.toLowerCase(), candidate.toLowerCase()) }))
      .sort((a, b) => b.score - a.score);
    if (ranked[0].score >= 1 / 3) return ranked[0].candidate;
    return null;
  }
  return null;
}

function gramCounts(text: string, size: number): Map<string, number> {
  const padded = `-${text.toLowerCase().replace(/[^\p{L}\p{N}, ]/gu, '')}-`;
  const counts = new Map<string, number>();
  for (let i = 0; i + size <= padded.length; i++) {
    const gram = padded.slice(i, i + size);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  for (const [gram, count] of a) dot += count * (b.get(gram) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((sum, count) => sum + count * count, 0));
  return dot === 0 ? 0 : dot / (norm(a) * norm(b));
}

function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - levenshtein(a, b) / longest;
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * Whether the call runs in a read-only transaction: GET and HEAD always (a volatile function then fails
 * with Postgres' read-only error, which the server answers 405), POST unless the function is volatile.
 */
export const callIsReadOnly = (routine: Routine, method: CallOptions['method']): boolean =>
  method !== 'POST' || routine.volatility !== 'volatile';
