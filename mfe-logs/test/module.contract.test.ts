import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { checkRemoteModule, logsRoutes } from '@dash/contracts';
import logsModule from '../src/module';
import { edgeLogsReply } from './fixtures';

describe('mfe_logs contract', () => {
  it('exports a module that satisfies RemoteModule', () => {
    expect(checkRemoteModule(logsModule, { name: 'mfe_logs', mount: 'logs' })).toEqual([]);
  });

  it('is refused under another name', () => {
    expect(checkRemoteModule(logsModule, { name: 'mfe_other', mount: 'logs' })).toEqual([expect.stringContaining('name is mfe_logs')]);
  });

  it('uses fixtures that match the edge-logs reply schema', () => {
    const ajv = addFormats(new Ajv({ strict: false }));
    const validate = ajv.compile(logsRoutes.edgeLogs.response);
    expect(validate(edgeLogsReply)).toBe(true);
    expect(validate({ events: [{ ...edgeLogsReply.events[0], status: 'ok' }] })).toBe(false);
  });
});
