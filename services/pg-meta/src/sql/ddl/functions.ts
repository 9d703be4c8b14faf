import type { FunctionArgInput, FunctionBehavior, FunctionInput } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import { listSettingElements } from '../roles-write';
import { DdlMessages, ident, literal, qualified } from './names';
import { parseColumnType } from './types';

/*
 * Function writes. Names and types are quoted identifiers (types through the column form's parser, so
 * a type can only name a type); the body is one dollar-quoted string whose tag does not occur in it;
 * setting values are literals. Volatility, argument modes and security are fixed keywords.
 */

const BEHAVIOR: Record<FunctionBehavior, string> = { IMMUTABLE: 'immutable', STABLE: 'stable', VOLATILE: 'volatile' };
const MODE: Record<NonNullable<FunctionArgInput['mode']>, string> = { in: 'in', out: 'out', inout: 'inout', variadic: 'variadic' };

/**
 * `$tag$text$tag$` with a tag the text cannot end early: Postgres closes the string at the first
 * occurrence of the tag after the opening one, so that must be the closing tag itself.
 */
export function dollarQuote(text: string): string {
  if (text.includes('\u0000')) throw badRequest(DdlMessages.nulCharacter);
  for (let n = 0; ; n++) {
    const tag = n === 0 ? '$body$' : `$body${n}$`;
    if (`${text}${tag}`.indexOf(tag) === text.length) return `${tag}${text}${tag}`;
  }
}

/** `setof <type>` or a type name (`void`, `trigger`, `int8`, `text[]`, `my_schema.my_type`). */
export function returnTypeSql(text: string): string {
  const setof = /^\s*setof\s+/i.exec(text);
  return setof ? `setof ${parseColumnType(text.slice(setof[0].length)).sql}` : parseColumnType(text).sql;
}

const argSql = (arg: FunctionArgInput) => `${MODE[arg.mode ?? 'in']} ${ident(arg.name)} ${parseColumnType(arg.type).sql}`;

/** `"schema"."name"(types of the input arguments)`, the form `to_regprocedure` reads, built from quoted names. */
export function functionSignature(input: Pick<FunctionInput, 'schema' | 'name' | 'args'>): string {
  const inputs = input.args.filter((arg) => arg.mode !== 'out').map((arg) => parseColumnType(arg.type).sql);
  return `${qualified(input)}(${inputs.join(', ')})`;
}

function settingSql(name: string, value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_$.]*$/.test(name)) throw badRequest(`"${name.slice(0, 100)}" is not a setting name`);
  const values = name.toLowerCase() === 'search_path' ? listSettingElements(value) : [value];
  return `set ${ident(name)} to ${values.map(literal).join(', ')}`;
}

/** `create [or replace] function`: with `replace`, a function of the same signature keeps its oid. */
export function createFunctionStatement(input: FunctionInput, replace = false): string {
  const clauses = [
    `${replace ? 'create or replace' : 'create'} function ${qualified(input)}(${input.args.map(argSql).join(', ')})`,
    `returns ${returnTypeSql(input.return_type)}`,
    `language ${ident(input.language)}`,
    BEHAVIOR[input.behavior],
    input.security_definer ? 'security definer' : 'security invoker',
    ...Object.entries(input.config_params ?? {}).map(([name, value]) => settingSql(name, value)),
    `as ${dollarQuote(input.definition)}`,
  ];
  return clauses.join('\n');
}

/**
 * `signature` is Postgres's own `regprocedure` text of the existing function (its names quoted by
 * Postgres), read from the catalog by oid: it is never text from the request.
 */
export const renameFunctionStatement = (signature: string, name: string) => `alter function ${signature} rename to ${ident(name)}`;
export const moveFunctionStatement = (signature: string, schema: string) => `alter function ${signature} set schema ${ident(schema)}`;
export const dropFunctionStatement = (signature: string, cascade: boolean) => `drop function ${signature} ${cascade ? 'cascade' : 'restrict'}`;
