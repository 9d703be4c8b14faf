import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';
import type { SQLNamespace } from '@codemirror/lang-sql';
import { syntaxTree } from '@codemirror/language';
import type { CompletionCatalog } from '@dash/contracts';

/*
 * Completion from the project's catalog (`sqlEditorRoutes.completions`): schemas, tables and views with
 * their columns through lang-sql's schema namespace, and functions through a source of our own.
 */

const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_$]*$/;

/** How a name is typed in SQL: as it is when Postgres would read it back unchanged, else double-quoted. */
export function sqlIdentifier(name: string): string {
  return PLAIN_IDENTIFIER.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

function option(label: string, type: string, detail?: string): Completion {
  const apply = sqlIdentifier(label);
  return { label, type, ...(detail ? { detail } : {}), ...(apply !== label ? { apply } : {}) };
}

/** lang-sql reads dots in a namespace key as levels (`schema.table`); a name's own dots are escaped. */
const key = (name: string) => name.replace(/\./g, '\\.');

type Level = { self: Completion; children: SQLNamespace };

/**
 * The catalog as lang-sql's nested namespace: schema → table or view → columns (with their types as
 * details). Null-prototype objects, so a table named `constructor` or `__proto__` is just a name.
 */
export function catalogNamespace(catalog: CompletionCatalog): SQLNamespace {
  const schemas: Record<string, Level> = Object.create(null);
  const schemaLevel = (name: string): Record<string, SQLNamespace> => {
    const k = key(name);
    schemas[k] ??= { self: option(name, 'namespace', 'schema'), children: Object.create(null) as Record<string, SQLNamespace> };
    return schemas[k].children as Record<string, SQLNamespace>;
  };
  for (const name of catalog.schemas) schemaLevel(name);
  for (const relation of catalog.relations) {
    schemaLevel(relation.schema)[key(relation.name)] = {
      self: option(relation.name, relation.kind === 'view' ? 'interface' : 'class', relation.kind),
      children: relation.columns.map((c) => option(c.name, 'property', c.type)),
    };
  }
  return schemas;
}

/** Node names of lang-sql's syntax tree inside which no name is offered. */
const NOT_CODE = new Set(['String', 'LineComment', 'BlockComment', 'QuotedIdentifier']);

const NAME = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)`;
/** A relation after FROM, JOIN, UPDATE, INTO or TABLE: `orders`, `public.orders`, `"My Table"`. */
const RELATION_REF = new RegExp(String.raw`\b(?:from|join|update|into|table)\s+(${NAME}(?:\s*\.\s*${NAME})?)`, 'gi');

/** A name as Postgres reads it: quoted names as written, others folded to lower case. */
function unquote(name: string): string {
  const n = name.trim();
  return n.startsWith('"') ? n.slice(1, -1).replace(/""/g, '"') : n.toLowerCase();
}

/** The relations a statement names, as `schema.name` keys (unqualified ones in `defaultSchema`). */
export function referencedRelations(statement: string, defaultSchema = 'public'): string[] {
  const found: string[] = [];
  for (const match of statement.matchAll(RELATION_REF)) {
    const parts = match[1]!.split(new RegExp(String.raw`\s*\.\s*(?=${NAME}$)`));
    const [schema, name] = parts.length === 2 ? [unquote(parts[0]!), unquote(parts[1]!)] : [defaultSchema, unquote(parts[0]!)];
    found.push(`${schema}.${name}`);
  }
  return found;
}

/**
 * Column completion for a bare name (`select customer_em`): the columns of the tables the statement
 * names (FROM, JOIN, UPDATE, INTO), or, when it names none yet (the select list is often written
 * first), the columns of every table and view of the default schema. Each option says its table(s).
 * `table.` and `alias.` completions are lang-sql's.
 */
export function columnCompletionSource(catalog: CompletionCatalog, defaultSchema = 'public'): CompletionSource {
  const byRelation = new Map(catalog.relations.map((r) => [`${r.schema}.${r.name}`, r]));
  const collect = (relations: CompletionCatalog['relations'], boost: number): Completion[] => {
    const columns = new Map<string, { type: string; tables: string[] }>();
    for (const relation of relations) {
      for (const column of relation.columns) {
        const entry = columns.get(column.name) ?? { type: column.type, tables: [] };
        entry.tables.push(relation.name);
        columns.set(column.name, entry);
      }
    }
    return [...columns].map(([name, { type, tables }]) => ({
      ...option(name, 'property', `${type} · ${tables.length > 3 ? `${tables.slice(0, 3).join(', ')}…` : tables.join(', ')}`),
      boost,
    }));
  };
  const everywhere = collect(
    catalog.relations.filter((r) => r.schema === defaultSchema),
    -1,
  );
  return (context: CompletionContext): CompletionResult | null => {
    const tree = syntaxTree(context.state);
    const node = tree.resolveInner(context.pos, -1);
    if (NOT_CODE.has(node.name)) return null;
    const match = context.matchBefore(/[\w$]*$/);
    if (!match) return null;
    if (match.from > 0 && context.state.sliceDoc(match.from - 1, match.from) === '.') return null;
    if (match.text === '' && !context.explicit) return null;
    let statement: { from: number; to: number } | null = null;
    for (let at: typeof node | null = node; at; at = at.parent) if (at.name === 'Statement') statement = at;
    const text = statement ? context.state.sliceDoc(statement.from, statement.to) : context.state.sliceDoc(0, context.state.doc.length);
    const named = referencedRelations(text, defaultSchema)
      .map((key) => byRelation.get(key))
      .filter((r): r is CompletionCatalog['relations'][number] => r !== undefined);
    const options = named.length > 0 ? collect(named, 1) : everywhere;
    return options.length > 0 ? { from: match.from, options, validFor: /^[\w$]*$/ } : null;
  };
}

/**
 * Function completion: unqualified names offer the `public` schema's functions (as `search_path`
 * finds them), `schema.` offers that schema's. Overloads are one option listing every signature.
 */
export function functionCompletionSource(functions: CompletionCatalog['functions'], defaultSchema = 'public'): CompletionSource {
  const bySchema = new Map<string, Map<string, { signatures: string[] }>>();
  for (const fn of functions) {
    let names = bySchema.get(fn.schema);
    if (!names) bySchema.set(fn.schema, (names = new Map()));
    const entry = names.get(fn.name) ?? { signatures: [] };
    entry.signatures.push(`${fn.name}(${fn.args}) → ${fn.returns}`);
    names.set(fn.name, entry);
  }
  const options = new Map<string, Completion[]>();
  for (const [schema, names] of bySchema) {
    options.set(
      schema,
      [...names].map(([name, { signatures }]) => ({
        ...option(name, 'function', signatures.length > 1 ? `${signatures.length} overloads` : signatures[0]!.slice(name.length)),
        info: signatures.join('\n'),
      })),
    );
  }
  return (context: CompletionContext): CompletionResult | null => {
    const node = syntaxTree(context.state).resolveInner(context.pos, -1);
    if (NOT_CODE.has(node.name)) return null;
    const match = context.matchBefore(/(?:([A-Za-z_][\w$]*)\.)?[A-Za-z_\w$]*$/);
    if (!match) return null;
    const dot = match.text.lastIndexOf('.');
    const word = dot === -1 ? match.text : match.text.slice(dot + 1);
    if (word === '' && !context.explicit) return null;
    const schema = dot === -1 ? defaultSchema : match.text.slice(0, dot);
    const list = options.get(schema);
    if (!list) return null;
    return { from: context.pos - word.length, options: list, validFor: /^[\w$]*$/ };
  };
}
