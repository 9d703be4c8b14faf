import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { ErrorReply, checkRemoteModule, pgMetaRoutes } from '@dash/contracts';
import sqlEditorModule from '../src/module';
import { selectReply, syntaxError, truncatedReply, updateReply } from './fixtures';

const ajv = addFormats(new Ajv({ strict: false }));

describe('mfe_sql_editor contract', () => {
  it('exports a module that satisfies RemoteModule', () => {
    expect(checkRemoteModule(sqlEditorModule, 'mfe_sql_editor')).toEqual([]);
  });

  it('is refused under another name', () => {
    expect(checkRemoteModule(sqlEditorModule, 'mfe_other')).toEqual([expect.stringContaining('name is mfe_sql_editor')]);
  });

  it('uses fixtures that match the run-query reply schema', () => {
    const validate = ajv.compile(pgMetaRoutes.runQuery.response);
    for (const reply of [selectReply, truncatedReply, updateReply]) expect(validate(reply)).toBe(true);
    expect(validate({ ...selectReply, truncated: undefined })).toBe(false);
    expect(validate({ ...selectReply, rowCount: '2' })).toBe(false);
    expect(validate({ ...selectReply, columns: [{ name: 'id' }] })).toBe(false);
  });

  it('uses an error fixture shaped like the services’ error reply, and sends bodies the route accepts', () => {
    expect(ajv.compile(ErrorReply)(syntaxError)).toBe(true);
    const body = ajv.compile(pgMetaRoutes.runQuery.body!);
    expect(body({ query: 'select 1' })).toBe(true);
    expect(body({ sql: 'select 1' })).toBe(false);
  });
});
