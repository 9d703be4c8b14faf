import type { IncomingHttpHeaders } from 'node:http';
import { PostgrestError } from '../query/errors';
import { parseFilter, parseLogic } from '../query/filter';
import { parseOrder } from '../query/order';
import { parseSelect } from '../query/select';
import type { Filter, OrderTerm, SelectNode } from '../query/types';

/** The query string in order, repeats kept (`id=gt.1&id=lt.9` is two filters); `+` is a space, as PostgREST reads it. */
export function queryParameters(rawUrl: string): Array<[string, string]> {
  const at = rawUrl.indexOf('?');
  return at === -1 ? [] : [...new URLSearchParams(rawUrl.slice(at + 1)).entries()];
}

/** One embedded resource's `order`, `limit` and `offset` (`actors.order=last_name`), keyed by its path. */
export interface EmbedModifiers {
  order?: OrderTerm[];
  limit?: string;
  offset?: string;
}

/** The parts of a query string PostgREST reads, parsed; every other parameter is a filter. */
export interface ParsedQuery {
  select: SelectNode[];
  filters: Filter[];
  order: OrderTerm[];
  limit?: string;
  offset?: string;
  /** `columns=a,b`, as given: the columns an insert or upsert takes from the body. */
  columns?: string;
  /** `on_conflict=a,b`, as given: the unique columns an upsert matches on. */
  onConflict?: string;
  /** `embed.order|limit|offset`, by the embed's path joined with `.`. */
  embeds: Map<string, EmbedModifiers>;
  /** For `/rpc/fn` by GET: parameters that name the function's arguments rather than filters (decided by the route). */
  rest: Array<[string, string]>;
}

const LOGIC_KEY = /(?:^|\.)(?:not\.)?(?:and|or)$/;
const MODIFIER_KEY = /^(.+)\.(order|limit|offset)$/;

/**
 * Reads a relation's (or a function's) query string. `isArgument` tells a function's argument from a
 * filter for `/rpc/fn` by GET (those go to `rest` untouched).
 */
export function parseQuery(parameters: Array<[string, string]>, isArgument: (key: string) => boolean = () => false): ParsedQuery {
  const parsed: ParsedQuery = { select: [{ kind: 'star' }], filters: [], order: [], embeds: new Map(), rest: [] };
  const embed = (path: string) => {
    let modifiers = parsed.embeds.get(path);
    if (!modifiers) parsed.embeds.set(path, (modifiers = {}));
    return modifiers;
  };
  for (const [key, value] of parameters) {
    if (isArgument(key)) {
      parsed.rest.push([key, value]);
      continue;
    }
    switch (key) {
      case 'select':
        parsed.select = parseSelect(value);
        continue;
      case 'order':
        parsed.order = parseOrder(value);
        continue;
      case 'limit':
        parsed.limit = value;
        continue;
      case 'offset':
        parsed.offset = value;
        continue;
      case 'columns':
        parsed.columns = value;
        continue;
      case 'on_conflict':
        parsed.onConflict = value;
        continue;
    }
    const modifier = MODIFIER_KEY.exec(key);
    if (modifier) {
      const [, path = '', what] = modifier;
      if (what === 'order') embed(path).order = parseOrder(value);
      else if (what === 'limit') embed(path).limit = value;
      else embed(path).offset = value;
      continue;
    }
    parsed.filters.push(LOGIC_KEY.test(key) ? parseLogic(key, value) : parseFilter(key, value));
  }
  return parsed;
}

/** `Prefer`'s preferences PostgREST knows, as given. */
export interface Preferences {
  return?: 'minimal' | 'headers-only' | 'representation';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  handling?: 'strict' | 'lenient';
  tx?: 'commit' | 'rollback';
  maxAffected?: number;
  timezone?: string;
  /** The preferences that take effect, for `Preference-Applied`. */
  applied: string[];
}

const PREFERENCE_VALUES: Record<string, readonly string[]> = {
  return: ['minimal', 'headers-only', 'representation'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  handling: ['strict', 'lenient'],
  tx: ['commit', 'rollback'],
};

/**
 * Reads every `Prefer` header. Unknown or malformed preferences are ignored, unless `handling=strict` asks
 * for them to be refused (PGRST122), as PostgREST does.
 */
export function parsePreferences(headers: IncomingHttpHeaders): Preferences {
  const raw = headers.prefer;
  const items = (Array.isArray(raw) ? raw.join(',') : raw ?? '').split(',').map((item) => item.trim()).filter(Boolean);
  const preferences: Preferences = { applied: [] };
  const invalid: string[] = [];
  for (const item of items) {
    const eq = item.indexOf('=');
    const name = (eq === -1 ? item : item.slice(0, eq)).trim();
    const value = eq === -1 ? '' : item.slice(eq + 1).trim();
    if (name === 'max-affected' && /^\d{1,15}$/.test(value)) {
      preferences.maxAffected = Number(value);
      continue;
    }
    if (name === 'timezone' && value) {
      preferences.timezone = value;
      continue;
    }
    const allowed = PREFERENCE_VALUES[name];
    if (allowed?.includes(value)) {
      (preferences as unknown as Record<string, string>)[name] = value;
      continue;
    }
    invalid.push(item);
  }
  if (preferences.handling === 'strict' && invalid.length > 0) {
    throw new PostgrestError(400, 'PGRST122', 'Invalid preferences given with handling=strict', `Invalid preferences: ${invalid.join(', ')}`);
  }
  return preferences;
}

/** What the response is written as. */
export type ResponseFormat = 'json' | 'object' | 'csv';

/** The negotiated response: its format and whether null-valued fields are left out (`nulls=stripped`). */
export interface ResponseMedia {
  format: ResponseFormat;
  stripNulls: boolean;
}

const FORMATS: Array<[string, ResponseFormat]> = [
  ['application/json', 'json'],
  ['application/vnd.pgrst.array+json', 'json'],
  ['application/vnd.pgrst.object+json', 'object'],
  ['application/vnd.pgrst.object', 'object'],
  ['text/csv', 'csv'],
  ['*/*', 'json'],
  ['application/*', 'json'],
];

/** PostgREST's own JSON types, whose `nulls=stripped` parameter leaves null-valued fields out (PostgREST 11.2). */
const STRIPPABLE = new Set(['application/vnd.pgrst.array+json', 'application/vnd.pgrst.object+json']);

/**
 * The format `Accept` asks for: the first listed media type this API can write (parameters and quality
 * values are read as PostgREST reads them: ignored for the choice, order decides; only `nulls=stripped`
 * of the vnd.pgrst JSON types counts). None: PGRST107 (406).
 */
export function negotiate(accept: string | undefined, allowed: readonly ResponseFormat[] = ['json', 'object', 'csv']): ResponseMedia {
  if (!accept || accept.trim() === '') return { format: 'json', stripNulls: false };
  const types = accept
    .split(',')
    .map((part) => {
      const [type, ...parameters] = part.split(';');
      return { type: type!.trim().toLowerCase(), parameters: parameters.map((p) => p.replace(/\s+/g, '').toLowerCase()) };
    })
    .filter(({ type }) => type !== '');
  for (const { type, parameters } of types) {
    const format = FORMATS.find(([name]) => name === type)?.[1];
    if (format && allowed.includes(format)) return { format, stripNulls: STRIPPABLE.has(type) && parameters.includes('nulls=stripped') };
  }
  throw new PostgrestError(406, 'PGRST107', `None of these media types are available: ${types.map(({ type }) => type).join(', ')}`);
}

/**
 * The schema of a request: `Accept-Profile` (reads) or `Content-Profile` (writes) naming one of the exposed
 * schemas, else the first. An unexposed one is PGRST106 (406); no exposed schema at all turns the API off.
 */
export function requestSchema(headers: IncomingHttpHeaders, method: string, schemas: readonly string[]): string {
  const header = method === 'GET' || method === 'HEAD' ? headers['accept-profile'] : headers['content-profile'];
  const asked = (Array.isArray(header) ? header[0] : header)?.trim();
  const schema = asked || schemas[0];
  if (schema === undefined || !schemas.includes(schema)) {
    throw new PostgrestError(406, 'PGRST106', `The schema must be one of the following: ${schemas.join(', ')}`);
  }
  return schema;
}

/** PostgREST's `request.headers`: every header lowercased (the gateway's own signed headers left out). */
export function requestHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith('x-dash-')) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** `request.cookies`: the `Cookie` header's pairs. */
export function requestCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0) cookies[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return cookies;
}
