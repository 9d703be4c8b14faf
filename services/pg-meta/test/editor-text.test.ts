import { copyCsvStatement, declareCursorStatement, explainStatement, singleStatement, uniqueKeys, userPosition } from '../src/sql/editor-text';

describe('singleStatement', () => {
  it("finds the text's one statement, without its semicolon and what follows", () => {
    expect(singleStatement('select 1')).toEqual({ text: 'select 1', start: 0 });
    expect(singleStatement('  -- first\n select 1 ;; -- done\n')).toEqual({ text: 'select 1 ', start: 12 });
    expect(singleStatement("select ';' as semi, $$;$$ as dollar /* ; */")).toEqual({ text: "select ';' as semi, $$;$$ as dollar /* ; */", start: 0 });
  });

  it('is null for no statement or several', () => {
    expect(singleStatement('')).toBeNull();
    expect(singleStatement('-- nothing ;')).toBeNull();
    expect(singleStatement('select 1; select 2')).toBeNull();
  });
});

describe('statements around the user’s', () => {
  const statement = singleStatement('\n\nselect a -- trailing comment\n;')!;

  it('keep the user text as written and end its comments before their own text', () => {
    expect(explainStatement(statement, false).text).toBe('explain (format json, summary) select a -- trailing comment\n\n');
    expect(explainStatement(statement, true).text).toBe('explain (format json, analyze, buffers, summary) select a -- trailing comment\n\n');
    expect(declareCursorStatement(statement).text).toBe('declare dash_export no scroll cursor for\nselect a -- trailing comment\n\n');
    expect(copyCsvStatement(statement).text).toBe('copy (\nselect a -- trailing comment\n\n) to stdout with (format csv, header)');
  });

  it("map Postgres's error positions back to the user's text", () => {
    const wrapped = copyCsvStatement(statement);
    // `a` is the 8th character of the user's statement, which starts after two newlines.
    const sentA = wrapped.text.indexOf('a --') + 1;
    expect(userPosition(sentA, wrapped)).toBe(statement.start + 8);
    expect('\n\nselect a'.charAt(userPosition(sentA, wrapped)! - 1)).toBe('a');
    // In our prefix: no position; past the user's statement: its end.
    expect(userPosition(1, wrapped)).toBeUndefined();
    expect(userPosition(wrapped.text.length, wrapped)).toBe(statement.start + statement.text.length + 1);
  });
});

describe('uniqueKeys', () => {
  it('suffixes repeated names with the first free number', () => {
    expect(uniqueKeys(['id', 'name', 'id', 'id'])).toEqual(['id', 'name', 'id_1', 'id_2']);
    expect(uniqueKeys(['a', 'a_1', 'a'])).toEqual(['a', 'a_1', 'a_2']);
    expect(uniqueKeys(['a', 'a', 'a_1'])).toEqual(['a', 'a_1', 'a_1_1']);
    expect(uniqueKeys([])).toEqual([]);
  });
});
