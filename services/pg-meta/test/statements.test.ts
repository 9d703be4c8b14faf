import { isEmptySql, statementHeads } from '../src/sql/statements';

const words = (sql: string) => statementHeads(sql).map((h) => h.words.join(' '));

describe('statementHeads', () => {
  it('splits statements on semicolons and reads their leading keywords', () => {
    expect(words('select 1; Create table t (id int);\n insert into t values (1)')).toEqual([
      'SELECT',
      'CREATE TABLE',
      'INSERT INTO',
    ]);
  });

  it('ignores semicolons and keywords inside strings, identifiers, comments and dollar quotes', () => {
    const sql = [
      "select 'a;commit' as x;",
      'select "odd;""commit" from t;',
      "select E'it\\'s; commit';",
      '-- commit;\nselect 2;',
      '/* outer /* nested; commit */ still comment; */ select 3;',
      'do $body$ begin commit; end $body$;',
      'select $$;rollback;$$;',
    ].join('\n');
    expect(words(sql)).toEqual(['SELECT', 'SELECT', 'SELECT', 'SELECT', 'SELECT', 'DO', 'SELECT']);
  });

  it('reads -- comments and E strings as Postgres does: a comment ends at \\r too, an E string goes on across a line break', () => {
    expect(words('select 1 --\r; vacuum')).toEqual(['SELECT', 'VACUUM']);
    expect(words('select 1 -- note\r\n; vacuum')).toEqual(['SELECT', 'VACUUM']);
    expect(words('select 1 --\v; vacuum')).toEqual(['SELECT']);
    expect(words("select E'a'\n'\\'; vacuum'; analyze")).toEqual(['SELECT', 'ANALYZE']);
    expect(words("select E'a' -- c\n'\\'; vacuum")).toEqual(['SELECT', 'VACUUM']);
  });

  it('does not take $1 or identifiers with $ for dollar quotes', () => {
    expect(words('select a$b$ from t; commit')).toEqual(['SELECT A$B$', 'COMMIT']);
    expect(words('select $1; end')).toEqual(['SELECT', 'END']);
  });

  it('treats blank text, comments and lone semicolons as empty', () => {
    expect(isEmptySql('')).toBe(true);
    expect(isEmptySql('  \n\t ')).toBe(true);
    expect(isEmptySql('-- nothing here\n/* or here */ ;;')).toBe(true);
    expect(isEmptySql('select 1')).toBe(false);
    expect(isEmptySql('(select 1)')).toBe(false);
  });

  it('keeps only keywords that lead the statement', () => {
    expect(words("select 'x' commit")).toEqual(['SELECT']);
    expect(words('(commit)')).toEqual(['']);
  });
});


describe('long dollar-quote tags', () => {
  it('hides semicolons inside a body whose tag is longer than 128 characters', () => {
    const tag = `$${'t'.repeat(200)}$`;
    expect(statementHeads(`select ${tag}; drop table x; ${tag}; vacuum`).map((h) => h.words)).toEqual([['SELECT'], ['VACUUM']]);
  });
});
