import { PostgrestError } from '../src';
import { closest, findRelationship } from '../src/schema/relationships';
import { relationKey, type Column, type ForeignKey, type Relation, type SchemaCache } from '../src/schema/types';

const column = (name: string, position: number): Column => ({
  name, type: 'integer', typeOid: 23, elementType: null, nullable: true, default: null, identity: null, generated: false,
  enumValues: null, maxLength: null, description: null, position,
});
const relation = (name: string, columns: string[], primaryKey: string[], kind: Relation['kind'] = 'table'): Relation => ({
  schema: 'api', name, kind, columns: columns.map(column), primaryKey, insertable: true, updatable: true, deletable: true, description: null,
});
const key = (constraint: string, table: string, columns: string[], foreignTable: string, oneToOne = false): ForeignKey => ({
  constraint, schema: 'api', table, columns, foreignSchema: 'api', foreignTable, foreignColumns: ['id'], oneToOne,
});

/** users and tasks joined twice (two junctions), a view of tasks, and a direct key from tasks to users. */
const cache: SchemaCache = {
  schemas: ['api'],
  relations: new Map([
    relation('users', ['id'], ['id']),
    relation('tasks', ['id', 'owner_id'], ['id']),
    relation('tasks_view', ['id', 'owner_id'], ['id'], 'view'),
    relation('assignments', ['user_id', 'task_id'], ['user_id', 'task_id']),
    relation('watchers', ['user_id', 'task_id', 'since'], ['user_id', 'task_id']),
    // Keys outside the primary key: not a junction.
    relation('likes', ['id', 'user_id', 'task_id'], ['id']),
  ].map((rel) => [relationKey(rel.schema, rel.name), rel])),
  foreignKeys: [
    key('tasks_owner_id_fkey', 'tasks', ['owner_id'], 'users'),
    key('tasks_owner_id_fkey', 'tasks_view', ['owner_id'], 'users'),
    key('assignments_user_id_fkey', 'assignments', ['user_id'], 'users'),
    key('assignments_task_id_fkey', 'assignments', ['task_id'], 'tasks'),
    key('watchers_user_id_fkey', 'watchers', ['user_id'], 'users'),
    key('watchers_task_id_fkey', 'watchers', ['task_id'], 'tasks'),
    key('likes_user_id_fkey', 'likes', ['user_id'], 'users'),
    key('likes_task_id_fkey', 'likes', ['task_id'], 'tasks'),
  ],
  routines: new Map(),
  computedRelationships: [],
  compositeTypes: new Map(),
};

const refusal = (origin: string, target: string, hint?: string) => {
  try {
    findRelationship(cache, 'api', origin, target, hint);
  } catch (error) {
    if (error instanceof PostgrestError) return { status: error.status, ...error.toJSON() };
  }
  throw new Error('expected a refusal');
};

test('one-to-many and two many-to-many through junctions whose keys are in their primary key: PGRST201 lists all three', () => {
  expect(refusal('users', 'tasks')).toEqual({
    status: 300,
    code: 'PGRST201',
    message: "Could not embed because more than one relationship was found for 'users' and 'tasks'",
    details: [
      { cardinality: 'one-to-many', embedding: 'users with tasks', relationship: 'tasks_owner_id_fkey using users(id) and tasks(owner_id)' },
      { cardinality: 'many-to-many', embedding: 'users with tasks', relationship: 'assignments using assignments_user_id_fkey(user_id) and assignments_task_id_fkey(task_id)' },
      { cardinality: 'many-to-many', embedding: 'users with tasks', relationship: 'watchers using watchers_user_id_fkey(user_id) and watchers_task_id_fkey(task_id)' },
    ],
    hint: "Try changing 'tasks' to one of the following: 'tasks!tasks_owner_id_fkey', 'tasks!assignments', 'tasks!watchers'. Find the desired relationship in the 'details' key.",
  });
});

test('hints pick one: the junction, the key, either side\'s column', () => {
  expect(findRelationship(cache, 'api', 'users', 'tasks', 'watchers')).toMatchObject({ kind: 'many-to-many', junction: { table: { name: 'watchers' } } });
  expect(findRelationship(cache, 'api', 'users', 'tasks', 'tasks_owner_id_fkey')).toMatchObject({ kind: 'one-to-many', columns: [['id', 'owner_id']] });
  expect(findRelationship(cache, 'api', 'users', 'tasks', 'owner_id')).toMatchObject({ kind: 'one-to-many' });
  expect(findRelationship(cache, 'api', 'tasks', 'users', 'owner_id')).toMatchObject({ kind: 'many-to-one', columns: [['owner_id', 'id']] });
});

test('a key\'s name or column as the target finds tables, never views', () => {
  expect(findRelationship(cache, 'api', 'tasks', 'owner_id')).toMatchObject({ kind: 'many-to-one', foreignTable: { name: 'users' } });
  expect(findRelationship(cache, 'api', 'tasks', 'tasks_owner_id_fkey')).toMatchObject({ kind: 'many-to-one' });
  // From users, `tasks_owner_id_fkey` names both the key to tasks and the one inferred to tasks_view: only the table counts.
  expect(findRelationship(cache, 'api', 'users', 'tasks_owner_id_fkey')).toMatchObject({ kind: 'one-to-many', foreignTable: { name: 'tasks' } });
  expect(findRelationship(cache, 'api', 'users', 'tasks_view')).toMatchObject({ kind: 'one-to-many', columns: [['id', 'owner_id']] });
});

test('no relationship: PGRST200, the hint suggests a close origin when the origin has none', () => {
  expect(refusal('user', 'tasks')).toMatchObject({
    status: 400, code: 'PGRST200', hint: "Perhaps you meant 'users' instead of 'user'.",
    details: "Searched for a foreign key relationship between 'user' and 'tasks' in the schema 'api', but no matches were found.",
  });
  expect(refusal('users', 'like')).toMatchObject({ code: 'PGRST200', hint: "Perhaps you meant 'likes' instead of 'like'." });
  expect(refusal('users', 'zzzz')).toMatchObject({ code: 'PGRST200', hint: null });
  // The target exists: the hint was the problem, so no suggestion.
  expect(refusal('users', 'likes', 'nope')).toMatchObject({ code: 'PGRST200', hint: null });
});

test('closest: case-insensitive edit similarity above the minimum, none below', () => {
  expect(closest(['films', 'directors'], 'Film', 0.75)).toBe('films');
  expect(closest(['films', 'directors'], 'flims', 0.75)).toBeNull();
  expect(closest(['films', 'directors'], 'directrs', 0.75)).toBe('directors');
  expect(closest([], 'x', 0)).toBeNull();
});

test('a computed relationship named after a related table overrides the relationships found to it', () => {
  const overridden: SchemaCache = {
    ...cache,
    computedRelationships: [{ function: { schema: 'api', name: 'users' }, from: { schema: 'api', name: 'tasks' }, to: { schema: 'api', name: 'users' }, toMany: false }],
  };
  expect(findRelationship(overridden, 'api', 'tasks', 'users')).toEqual({
    kind: 'computed', table: { schema: 'api', name: 'tasks' }, foreignTable: { schema: 'api', name: 'users' }, function: { schema: 'api', name: 'users' }, toOne: true,
  });
  // The key is still there to embed by its name from the other side.
  expect(findRelationship(overridden, 'api', 'users', 'tasks', 'tasks_owner_id_fkey')).toMatchObject({ kind: 'one-to-many' });
});

test('candidates are listed in PostgREST\'s order whatever the catalog\'s: one-to-many before many-to-many, then by key or junction', () => {
  const reversed: SchemaCache = { ...cache, foreignKeys: [...cache.foreignKeys].reverse() };
  let details: unknown;
  try {
    findRelationship(reversed, 'api', 'users', 'tasks');
  } catch (error) {
    details = (error as PostgrestError).details;
  }
  expect((details as { relationship: string }[]).map((candidate) => candidate.relationship.split(' ')[0])).toEqual(['tasks_owner_id_fkey', 'assignments', 'watchers']);
});
