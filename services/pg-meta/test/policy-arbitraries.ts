import fc from 'fast-check';
import { quoteIdent, quoteLiteral } from '@dash/service-kit';
import { hostileText } from './ddl-arbitraries';

/*
 * Policy expressions as users write them, with hostile leaves: string literals in every quoting style
 * Postgres has ('...', E'...', $tag$...$tag$), quoted column names, comments, nesting. Each carries the
 * string values it contains, which the deparsed policy must show.
 */

export interface Expr {
  sql: string;
  /** The string constants of the expression, as values. */
  literals: string[];
}

/** Text columns of the property tests' table (besides id int, owner uuid). */
export const TEXT_COLUMNS = ['email', 'we"ird col'];

const escapeE = (value: string) => `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** One string constant in one of Postgres's quoting styles. */
const stringConstant: fc.Arbitrary<Expr> = fc
  .tuple(hostileText, fc.constantFrom('standard', 'escape', 'dollar', 'dollar-tag'))
  // A dollar-quoted value must not hold its closing delimiter, even across its end ('x$' + '$$').
  .filter(([value, style]) => {
    const delimiter = style === 'dollar' ? '$$' : style === 'dollar-tag' ? '$q1$' : null;
    return delimiter === null || `${value}${delimiter}`.indexOf(delimiter) === value.length;
  })
  .map(([value, style]) => {
    const sql = style === 'standard' ? quoteLiteral(value) : style === 'escape' ? escapeE(value) : style === 'dollar' ? `$$${value}$$` : `$q1$${value}$q1$`;
    return { sql, literals: [value] };
  });

/** A comment that closes: no end or start of a block comment inside a block comment, no line break in a line comment. */
const comment = fc.oneof(
  hostileText.filter((t) => !t.includes('*/') && !t.includes('/*')).map((t) => `/* ${t} */`),
  hostileText.map((t) => `-- ${t.replace(/[\r\n]/g, ' ')}\n`),
);

const leaf: fc.Arbitrary<Expr> = fc.oneof(
  fc.constantFrom('true', 'false', 'auth.uid() = owner', 'owner is null', 'id > 0').map((sql) => ({ sql, literals: [] })),
  fc
    .tuple(fc.constantFrom(...TEXT_COLUMNS), fc.constantFrom('=', '<>', 'like', '>='), stringConstant)
    .map(([column, op, constant]) => ({ sql: `${quoteIdent(column)} ${op} ${constant.sql}`, literals: constant.literals })),
  stringConstant.map((constant) => ({ sql: `(auth.jwt() ->> 'email') = ${constant.sql}`, literals: ['email', ...constant.literals] })),
);

/** Boolean expressions over the leaves: and, or, not, parentheses, comments. */
export const policyExpression: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(tie('expr'), fc.constantFrom('and', 'or'), tie('expr')).map(([a, op, b]) => ({ sql: `(${a.sql}) ${op} (${b.sql})`, literals: [...a.literals, ...b.literals] })),
    tie('expr').map((a) => ({ sql: `not (${a.sql})`, literals: a.literals })),
    fc.tuple(comment, tie('expr')).map(([c, a]) => ({ sql: `${c} ${a.sql}`, literals: a.literals })),
    fc.tuple(tie('expr'), comment).map(([a, c]) => ({ sql: `${a.sql} ${c.endsWith('\n') ? c : `${c} `}`, literals: a.literals })),
  ),
})).expr;

/** Texts that try to leave the parentheses or the statement: each must be refused before it reaches Postgres. */
export const breakout: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(policyExpression, fc.constantFrom(') with check (true', '); drop table x; --', ') to public using (true', ')) or ((true')).map(([e, tail]) => `${e.sql}${tail}`),
  policyExpression.map((e) => `${e.sql}; select 1`),
  policyExpression.map((e) => `${e.sql} /* never closed`),
  policyExpression.map((e) => `${e.sql} = 'never closed`),
  policyExpression.map((e) => `${e.sql} = "never closed`),
  policyExpression.map((e) => `${e.sql} = $z$never closed`),
  policyExpression.map((e) => `(${e.sql}`),
);
