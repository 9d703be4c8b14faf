import {
  backupRoutes,
  organizationRoutes,
  pitrRoutes,
  projectLifecycleRoutes,
  projectSettingsRoutes,
  type RouteDef,
  type ServiceName,
} from '../contracts/dist';
export { prng } from '../services/kit/dist/testing';

/*
 * The contract fuzzer's cases, derived from each route's TypeBox schemas (JSON Schema at run time): a
 * base request whose values fit the schemas, then one hostile change at a time (a path parameter, a
 * query parameter, a body field, or the whole body) so each refusal is about one thing. Pure: the spec
 * (90-contract-fuzz.spec.ts) sends them through the gateway and judges the answers.
 */

/** The JSON Schema keywords TypeBox writes that the generator reads. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  allOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** The API name under `/p/{ref}/` of a service's project API (what the gateway maps to the service). */
export function projectApiName(service: ServiceName): string {
  return service === 'logs' ? 'analytics' : service;
}

/** Every route object in the contracts' exports (`defineRoute` results grouped in objects like `pgMetaRoutes`). */
export function contractRoutes(exports: Record<string, unknown>): RouteDef[] {
  const routes = new Map<string, RouteDef>();
  const isRoute = (value: unknown): value is RouteDef => {
    const r = value as Partial<RouteDef> | null;
    return !!r && typeof r === 'object' && typeof r.url === 'string' && typeof r.method === 'string' && typeof r.service === 'string' && !!r.access && !!r.response;
  };
  for (const group of Object.values(exports)) {
    if (!group || typeof group !== 'object' || Array.isArray(group)) continue;
    for (const value of Object.values(group)) if (isRoute(value)) routes.set(`${value.method} ${value.service} ${value.url}`, value);
  }
  return [...routes.values()];
}

/**
 * Routes whose valid calls are destructive for the fuzzers' own project or the shared stack; fuzzers send
 * them only input the contract refuses for certain, or a project that does not exist.
 */
export const GUARDED: ReadonlyMap<RouteDef, string> = new Map<RouteDef, string>([
  [projectLifecycleRoutes.deleteProject, "would delete the fuzzer's project"],
  [projectLifecycleRoutes.pauseProject, "would pause the fuzzer's project (every later answer a 503)"],
  [projectLifecycleRoutes.restoreProject, 'restores a paused project (as above)'],
  [projectLifecycleRoutes.retryProvisioning, "would re-provision the fuzzer's project"],
  [projectLifecycleRoutes.createProject, 'would provision a database for each valid name'],
  [projectSettingsRoutes.resetDatabasePassword, "would change the project's database password under the services"],
  [projectSettingsRoutes.rotateJwtSecret, 'would invalidate the project keys the fuzzer calls the project APIs with'],
  [organizationRoutes.updateOrganization, 'would rename the demo organization every spec shares'],
  [backupRoutes.restoreBackup, 'would provision a database for each valid name, as creating a project does'],
  [pitrRoutes.restorePitr, 'would recover the server and provision a database for each valid moment, as a backup restore does'],
]);

/** `count` items of `items`, chosen and ordered by `random` (all of them when count covers them). */
export function sample<T>(items: readonly T[], count: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}

const UUID = '00000000-0000-4000-8000-000000000000';
/** Strings tried, in order, against a schema's `pattern`. */
const PATTERN_CANDIDATES = ['fuzz', 'fuzz_1', 'fuzz-1', 'fuzzaaaaaaaaaaaaaaaa', 'a', 'A1', '1', 'fuzz@example.com', UUID, 'Fuzz 1', 'fuzz.txt'];

const typeOf = (schema: Schema): string | undefined => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

/** A value that fits the schema as well as a simple generator can (the base of every case). */
export function sampleOf(schema: Schema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.anyOf) return sampleOf(schema.anyOf.find((s) => typeOf(s) !== 'null') ?? schema.anyOf[0]);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sampleOf(s)));
  switch (typeOf(schema)) {
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 1;
      return schema.maximum !== undefined && schema.maximum < 1 ? schema.maximum : Math.max(1, min);
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sampleOf(schema.properties?.[key]);
      return out;
    }
    default:
      return 'fuzz';
  }
}

function sampleString(schema: Schema): string {
  switch (schema.format) {
    case 'uuid':
      return UUID;
    case 'date-time':
      return '2024-01-01T00:00:00.000Z';
    case 'date':
      return '2024-01-01';
    case 'email':
      return 'fuzz@example.com';
    case 'uri':
      return 'https://example.com/';
  }
  const fits = (s: string) =>
    (!schema.pattern || new RegExp(schema.pattern, 'u').test(s)) && s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity);
  const found = PATTERN_CANDIDATES.find(fits);
  if (found !== undefined) return found;
  const padded = 'fuzz'.padEnd(schema.minLength ?? 0, 'z');
  return schema.maxLength !== undefined ? padded.slice(0, schema.maxLength) : padded;
}

/** A body field: its path from the body's root and its schema. */
export interface Leaf {
  path: Array<string | number>;
  schema: Schema;
  required: boolean;
}

/** The fields of a body schema, nested objects and the first item of arrays included, to `depth`. */
export function leavesOf(schema: Schema | undefined, depth = 3, path: Array<string | number> = []): Leaf[] {
  if (!schema || depth === 0) return [];
  const options = schema.anyOf?.filter((s) => typeOf(s) !== 'null') ?? [];
  if (options.length === 1) return leavesOf(options[0], depth, path);
  if (schema.allOf) return schema.allOf.flatMap((s) => leavesOf(s, depth, path));
  if (typeOf(schema) === 'object' && schema.properties) {
    return Object.entries(schema.properties).flatMap(([key, child]) => [
      { path: [...path, key], schema: child, required: schema.required?.includes(key) ?? false },
      ...leavesOf(child, depth - 1, [...path, key]),
    ]);
  }
  if (typeOf(schema) === 'array' && schema.items) {
    return [{ path: [...path, 0], schema: schema.items, required: false }, ...leavesOf(schema.items, depth - 1, [...path, 0])];
  }
  return [];
}

/** A copy of `root` with `value` at `path` (intermediate objects and arrays made), or the field removed. */
export function withValue(root: unknown, path: Array<string | number>, value: unknown, remove = false): unknown {
  const copy = structuredClone(root ?? {}) as Record<string | number, unknown>;
  let node = copy;
  path.slice(0, -1).forEach((key, i) => {
    const next = node[key];
    if (!next || typeof next !== 'object') node[key] = typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  const last = path[path.length - 1]!;
  if (remove) delete node[last];
  else node[last] = value;
  return copy;
}

// ---------------------------------------------------------------- hostile values

export const LONG = 100 * 1024;
/** Object.prototype's names, which a lookup in a plain object finds when it reads inherited properties. */
export const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

/** The JSON types a schema accepts (`any` for an unconstrained one). */
function acceptedTypes(schema: Schema): Set<string> {
  if (schema.anyOf) return new Set(schema.anyOf.flatMap((s) => [...acceptedTypes(s)]));
  if (schema.allOf) return new Set(schema.allOf.flatMap((s) => [...acceptedTypes(s)]));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['any'];
  // An integer schema takes JSON numbers too (1.0); a number schema takes integers.
  return new Set(types.flatMap((t) => (t === 'integer' || t === 'number' ? ['integer', 'number'] : [t])));
}

/** Values of a JSON type no field of `accepted` types takes: certainly refused by the contract. */
export function wrongTypes(schema: Schema): Array<{ label: string; value: unknown }> {
  const accepted = acceptedTypes(schema);
  if (accepted.has('any')) return [];
  const candidates: Array<[string, unknown]> = [
    ['null', null],
    ['boolean', true],
    ['number', 0],
    ['string', 'fuzz'],
    ['array', []],
    ['object', {}],
  ];
  return candidates.filter(([type]) => !accepted.has(type)).map(([type, value]) => ({ label: `wrong type (${type})`, value }));
}

/** Hostile values for a body field: wrong types for its schema, NUL, extremes, and prototype names. */
export function hostileJsonValues(schema: Schema): Array<{ label: string; value: unknown }> {
  return [
    ...wrongTypes(schema),
    { label: 'NUL', value: 'a\u0000b' },
    { label: '100 KB string', value: 'x'.repeat(LONG) },
    { label: 'lone surrogate', value: 'a\ud800b' },
    ...PROTOTYPE_NAMES.slice(0, 2).map((name) => ({ label: `prototype name ${name}`, value: name })),
    { label: 'huge number', value: 1e308 },
    { label: 'beyond int8', value: 2 ** 64 },
    { label: 'negative number', value: -2147483649 },
    { label: 'fraction', value: 1.5 },
  ];
}

/** A hostile text for a URL (path segment or query value), already encoded as it goes on the wire. */
export interface UrlValue {
  label: string;
  raw: string;
}

const encoded = (label: string, text: string): UrlValue => ({ label, raw: encodeURIComponent(text) });

/** Hostile path segments and query values, NUL and bad UTF-8 percent-encoded as an attacker sends them. */
export const HOSTILE_URL_VALUES: UrlValue[] = [
  { label: 'NUL (%00)', raw: '%00' },
  { label: 'NUL inside (a%00b)', raw: 'a%00b' },
  { label: 'bad UTF-8 (%FF)', raw: '%FF%FE' },
  { label: 'truncated escape (%E2%82)', raw: '%E2%82' },
  { label: 'lone percent', raw: '%' },
  encoded('10 KB value', 'x'.repeat(10 * 1024)),
  encoded('100 KB value', 'x'.repeat(LONG)),
  ...PROTOTYPE_NAMES.map((name) => encoded(`prototype name ${name}`, name)),
  encoded('negative number', '-1'),
  encoded('zero', '0'),
  encoded('huge number', '99999999999999999999999999'),
  encoded('beyond int4', '4294967296'),
  encoded('float overflow', '1e309'),
  encoded('NaN', 'NaN'),
  encoded('fraction', '1.5'),
  encoded('hex', '0x10'),
  encoded('year 0 timestamp', '0000-01-01T00:00:00Z'),
  encoded('far-future timestamp', '294277-01-01T00:00:00Z'),
  encoded('SQL', "'; select pg_sleep(10); --"),
  encoded('dot segments', '../..'),
  { label: 'encoded dot segments', raw: '%2e%2e' },
  { label: 'encoded slash', raw: 'a%2Fb' },
];

/** Whole request bodies that break JSON itself rather than one field. */
export interface RawBody {
  label: string;
  contentType: string;
  body: Buffer;
}

export const HUGE_BODY_BYTES = 10 * 1024 * 1024 + 1;
const DEEP = 100_000;

/** Raw bodies around `base` (the route's base body): bad JSON, bad UTF-8, huge, deep, prototype keys. */
export function rawBodies(base: unknown): RawBody[] {
  const json = (label: string, text: string | Buffer): RawBody => ({ label, contentType: 'application/json', body: Buffer.isBuffer(text) ? text : Buffer.from(text) });
  const baseObject = base && typeof base === 'object' && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  // Bad UTF-8 inside a string value, where a JSON parser must decode it.
  const marker = '\u0001FUZZ\u0001';
  const [before, after] = JSON.stringify({ ...baseObject, fuzz: marker }).split(JSON.stringify(marker));
  return [
    json('invalid JSON', '{"a": '),
    json('bad UTF-8 in a string', Buffer.concat([Buffer.from(`${before}"`), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(`"${after}`)])),
    json('10 MB body', `{"fuzz":"${'x'.repeat(HUGE_BODY_BYTES)}"}`),
    json('deeply nested arrays', '['.repeat(DEEP) + ']'.repeat(DEEP)),
    json('deeply nested objects', '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP)),
    json('__proto__ key', `{"__proto__":{"polluted":true},${JSON.stringify(baseObject).slice(1)}`.replace(/,}$/, '}')),
    json('constructor.prototype key', JSON.stringify({ ...baseObject, constructor: { prototype: { polluted: true } } })),
    json('JSON null', 'null'),
    json('JSON array', '[]'),
    json('JSON string', '"fuzz"'),
    json('empty body', ''),
    { label: 'text/plain body', contentType: 'text/plain', body: Buffer.from(JSON.stringify(baseObject)) },
    { label: 'form body', contentType: 'application/x-www-form-urlencoded', body: Buffer.from('a=b&__proto__=x') },
  ];
}
