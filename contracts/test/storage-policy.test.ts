import fc from 'fast-check';
import { policyBucket } from '../src';

/** A standard SQL literal of any text, as a user (or Postgres's deparser) writes it. */
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
/** The same text as an E'' literal, with backslashes and quotes escaped the E-string way. */
const eLiteral = (value: string) => `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** Bucket names meant to confuse a text splitter: quotes, backslashes, SQL words, unicode. */
const hostileName = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  fc.constantFrom(
    "it's",
    "''",
    "'",
    '\\',
    "\\'",
    "bucket_id = 'other'",
    "x' OR bucket_id = 'y",
    'a AND b',
    '$$',
    '$tag$ x $tag$',
    '"quoted"',
    '-- comment',
    '/* comment',
    'Ünïcödé 東京 🍣',
    ' trailing space ',
    ')',
    '::text',
  ),
);

describe('policyBucket: what groups a policy under a bucket', () => {
  it('reads the forms Postgres deparses', () => {
    expect(policyBucket("(bucket_id = 'avatars'::text)")).toBe('avatars');
    expect(policyBucket("((bucket_id = 'avatars'::text) AND ((storage.foldername(name))[1] = 'public'::text))")).toBe('avatars');
    expect(policyBucket("((bucket_id = 'avatars'::text) AND (auth.role() = 'authenticated'::text) AND (lower(storage.extension(name)) = 'jpg'::text))")).toBe(
      'avatars',
    );
    expect(policyBucket("((bucket_id = 'it''s'::text) AND ((auth.uid())::text = (storage.foldername(name))[1]))")).toBe("it's");
  });

  it('reads the forms users write', () => {
    expect(policyBucket("bucket_id = 'x'")).toBe('x');
    expect(policyBucket("'x' = bucket_id")).toBe('x');
    expect(policyBucket("objects.bucket_id = 'it''s'")).toBe("it's");
    expect(policyBucket('storage.objects.bucket_id = \'x\'')).toBe('x');
    expect(policyBucket('"bucket_id" = \'x\'::text')).toBe('x');
    expect(policyBucket('"storage"."objects"."bucket_id" = \'x\'')).toBe('x');
    expect(policyBucket("BUCKET_ID='x'")).toBe('x');
    expect(policyBucket("E'a\\'b\\\\c' = bucket_id")).toBe("a'b\\c");
    expect(policyBucket("bucket_id = e'\\x41\\u00e9\\101\\n'")).toBe('Aé\x41\n');
    expect(policyBucket('bucket_id = $$dollar\'s$$')).toBe("dollar's");
    expect(policyBucket('bucket_id = $q$a$$b$q$')).toBe('a$$b');
    expect(policyBucket("bucket_id = U&'d\\0061t\\+000061'")).toBe('data');
    expect(policyBucket("bucket_id = U&'d!0061ta' UESCAPE '!'")).toBe('data');
    expect(policyBucket("bucket_id = N'x'")).toBe('x');
    expect(policyBucket("bucket_id::text = ('x'::character varying)::text")).toBe('x');
    expect(policyBucket("bucket_id = CAST('x' AS varchar(100))")).toBe('x');
    expect(policyBucket("bucket_id = 'x'::pg_catalog.text")).toBe('x');
    expect(policyBucket("bucket_id = 'a'\n  'b'")).toBe('ab');
    expect(policyBucket("auth.uid() IS NOT NULL AND bucket_id = 'x'")).toBe('x');
    expect(policyBucket("size BETWEEN 1 AND 10 AND bucket_id = 'x'")).toBe('x');
    expect(policyBucket("/* bucket */ bucket_id /* the /* nested */ id */ = 'x' -- end")).toBe('x');
  });

  it('leaves a policy ungrouped when no conjunct is a bucket_id equality with a literal', () => {
    const ungrouped = [
      null,
      undefined,
      '',
      'true',
      "auth.role() = 'authenticated'",
      // the words only inside a literal, a comment or an identifier
      "name = 'bucket_id = ''x'''",
      "owner_id = E'bucket_id = \\'x\\''",
      "-- bucket_id = 'x'\ntrue",
      "/* bucket_id = 'x' */ true",
      '"bucket_id = \'x\'" = true',
      "my_bucket_id = 'x'",
      "bucket_idx = 'x'",
      "bucket_id2 = 'x'",
      // not a restriction of the whole policy
      "bucket_id = 'x' OR true",
      "(bucket_id = 'x') OR (bucket_id = 'y')",
      "NOT (bucket_id = 'x')",
      "NOT bucket_id = 'x'",
      "CASE WHEN true AND bucket_id = 'x' AND true THEN true END",
      "exists (select 1 from storage.buckets b where b.id = 'x' and bucket_id = 'x')",
      "(bucket_id = 'x') IS NOT NULL",
      "bucket_id = 'x'::text IS NOT NULL",
      "id BETWEEN bucket_id = 'x' AND true",
      // not an equality with a literal
      "bucket_id <> 'x'",
      "bucket_id != 'x'",
      "bucket_id = 'x' || 'y'",
      "bucket_id = lower('X')",
      'bucket_id = name',
      'bucket_id = 1',
      "bucket_id IN ('x')",
      "bucket_id = 'x' COLLATE \"C\"",
      // text Postgres would not lex
      "bucket_id = 'x",
      'bucket_id = $$x',
      "bucket_id = 'x' /* open",
      "((bucket_id = 'x')",
    ];
    for (const expression of ungrouped) expect([expression, policyBucket(expression)]).toEqual([expression, null]);
  });

  it('groups a generated bucket_id equality to exactly its bucket, whatever the name', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        expect(policyBucket(`bucket_id = ${literal(name)}::text`)).toBe(name);
        expect(policyBucket(`(${literal(name)}::text = objects.bucket_id)`)).toBe(name);
        expect(policyBucket(`"bucket_id" = ${eLiteral(name)}`)).toBe(name);
      }),
    );
  });

  it('finds the equality anywhere in the top-level AND chain', () => {
    const condition = fc.constantFrom(
      "(auth.role() = 'authenticated'::text)",
      "((storage.foldername(name))[1] = 'public'::text)",
      '(owner = auth.uid())',
      "(name ~~ '%bucket_id = ''no''%'::text)",
      '(size BETWEEN 1 AND 10)',
      "((bucket_id = 'or'::text) OR true)",
      "(CASE WHEN (bucket_id = 'case'::text) THEN true ELSE false END)",
    );
    fc.assert(
      fc.property(hostileName, fc.array(condition, { maxLength: 3 }), fc.array(condition, { maxLength: 3 }), (name, before, after) => {
        const expression = [...before, `(bucket_id = ${literal(name)}::text)`, ...after].join(' AND ');
        expect(policyBucket(`(${expression})`)).toBe(name);
      }),
    );
  });

  it('does not group text that merely contains the words', () => {
    fc.assert(
      fc.property(hostileName, fc.constantFrom('name', 'owner_id', 'bucket_idx'), (name, column) => {
        const text = `bucket_id = ${literal(name)}`;
        expect(policyBucket(`${column} = ${literal(text)}`)).toBeNull();
        expect(policyBucket(`${column} = ${eLiteral(text)}::text`)).toBeNull();
        expect(policyBucket(`(${text}) OR (${column} = 'x')`)).toBeNull();
        expect(policyBucket(`NOT (${text})`)).toBeNull();
      }),
    );
  });
});
