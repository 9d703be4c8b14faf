import { commentOnColumnSql } from './columns';
import { commentValue, ident, qualified, type QualifiedName } from './names';

/** A relation as `relationDefinitionQuery` reads it. */
export interface RelationDefinition {
  schema: string;
  name: string;
  /** pg_class.relkind: r, p, v, m or f. */
  kind: string;
  comment: string | null;
  rls_enabled: boolean;
  rls_forced: boolean;
  view_query: string | null;
  partition_key: string | null;
  partition_of: QualifiedName | null;
  partition_bound: string | null;
  foreign_server: string | null;
  columns: Array<{
    name: string;
    type: string;
    default: string | null;
    generated: string | null;
    identity: 'always' | 'by default' | null;
    not_null: boolean;
    collation: QualifiedName | null;
    comment: string | null;
  }>;
  constraints: Array<{ name: string; definition: string }>;
  indexes: string[];
  policies: Array<{
    name: string;
    permissive: boolean;
    /** pg_policy.polcmd: r, a, w, d or * */
    command: string;
    /** Role names; null stands for PUBLIC. */
    roles: Array<string | null>;
    using: string | null;
    check: string | null;
  }>;
}

const RELATION_WORDS: Readonly<Record<string, string>> = { r: 'table', p: 'table', v: 'view', m: 'materialized view', f: 'foreign table' };
const POLICY_COMMANDS: Readonly<Record<string, string>> = { r: 'select', a: 'insert', w: 'update', d: 'delete', '*': 'all' };

function columnLine(column: RelationDefinition['columns'][number]): string {
  const parts = [ident(column.name), column.type];
  if (column.collation) parts.push(`collate ${qualified(column.collation)}`);
  if (column.identity) parts.push(`generated ${column.identity} as identity`);
  if (column.generated !== null) parts.push(`generated always as (${column.generated}) stored`);
  if (column.default !== null) parts.push(`default ${column.default}`);
  if (column.not_null) parts.push('not null');
  return parts.join(' ');
}

function createStatement(def: RelationDefinition): string {
  const target = qualified(def);
  if (def.kind === 'v' || def.kind === 'm') {
    // Postgres indents the query it prints; only its final semicolon goes.
    const query = (def.view_query ?? '').replace(/\s*;?\s*$/, '');
    return `create ${def.kind === 'm' ? 'materialized view' : 'view'} ${target} as\n${query}`;
  }
  if (def.partition_of) return `create table ${target} partition of ${qualified(def.partition_of)} ${def.partition_bound ?? 'default'}`;
  const lines = [
    ...def.columns.map(columnLine),
    ...def.constraints.map((constraint) => `constraint ${ident(constraint.name)} ${constraint.definition}`),
  ];
  const body = lines.length > 0 ? ` (\n  ${lines.join(',\n  ')}\n)` : ' ()';
  if (def.kind === 'f') return `create foreign table ${target}${body} server ${ident(def.foreign_server ?? '')}`;
  return `create table ${target}${body}${def.partition_key ? ` partition by ${def.partition_key}` : ''}`;
}

/**
 * The relation's DDL as the definition view shows it: CREATE (columns with types, collations,
 * identity, generated expressions, defaults and NOT NULL, then the table's own constraints), its other
 * indexes, row-level security, policies and comments. Names are quoted here; expressions are as
 * Postgres prints them.
 */
export function relationDefinitionSql(def: RelationDefinition): string {
  const target = qualified(def);
  const blocks: string[][] = [[createStatement(def)]];
  if (def.partition_of) {
    blocks.push(def.constraints.map((constraint) => `alter table ${target} add constraint ${ident(constraint.name)} ${constraint.definition}`));
  }
  blocks.push(def.indexes);
  const security: string[] = [];
  if (def.rls_enabled) security.push(`alter table ${target} enable row level security`);
  if (def.rls_forced) security.push(`alter table ${target} force row level security`);
  blocks.push(security);
  blocks.push(
    def.policies.map((policy) => {
      const roles = policy.roles.length > 0 ? policy.roles.map((role) => (role === null ? 'public' : ident(role))).join(', ') : 'public';
      return [
        `create policy ${ident(policy.name)} on ${target}`,
        `as ${policy.permissive ? 'permissive' : 'restrictive'}`,
        `for ${POLICY_COMMANDS[policy.command] ?? 'all'}`,
        `to ${roles}`,
        ...(policy.using !== null ? [`using (${policy.using})`] : []),
        ...(policy.check !== null ? [`with check (${policy.check})`] : []),
      ].join('\n  ');
    }),
  );
  const comments: string[] = [];
  if (def.comment !== null) comments.push(`comment on ${RELATION_WORDS[def.kind] ?? 'table'} ${target} is ${commentValue(def.comment)}`);
  for (const column of def.columns) {
    if (column.comment !== null) comments.push(commentOnColumnSql(def, column.name, column.comment));
  }
  blocks.push(comments);
  return blocks
    .filter((block) => block.length > 0)
    .map((block) => block.map((statement) => `${statement};`).join('\n'))
    .join('\n\n');
}
