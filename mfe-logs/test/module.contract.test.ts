import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { checkRemoteModule, logsRoutes, Permission } from '@dash/contracts';
import logsModule from '../src/module';
import { ReportsMenu } from '../src/reports/ReportsMenu';
import { edgeLogsReply, olderEdgeLogsReply } from './fixtures';

describe('mfe_logs contract', () => {
  it('exports a module that satisfies RemoteModule', () => {
    expect(checkRemoteModule(logsModule, { name: 'mfe_logs', mount: 'logs' })).toEqual([]);
  });

  it('serves the reports area: the built-in reports (storage behind its permission), then the custom reports at run time', () => {
    expect(logsModule.areas.map((a) => [a.mount, a.title])).toEqual([
      ['logs', 'Logs'],
      ['reports', 'Reports'],
    ]);
    const reports = logsModule.areas[1]!;
    expect(reports.menu).toEqual([
      {
        title: 'Built-in reports',
        items: [
          { label: 'API', path: 'api-overview' },
          { label: 'Database', path: 'database' },
          { label: 'Storage', path: 'storage', permission: Permission.ProjectStorageAll },
        ],
      },
    ]);
    expect(reports.menuExtra).toBe(ReportsMenu);
  });

  it('is refused under another name', () => {
    expect(checkRemoteModule(logsModule, { name: 'mfe_other', mount: 'logs' })).toEqual([expect.stringContaining('name is mfe_logs')]);
  });

  it('uses fixtures that match the source events reply schema', () => {
    const ajv = addFormats(new Ajv({ strict: false }));
    const validate = ajv.compile(logsRoutes.sourceEvents.response);
    expect(validate(edgeLogsReply)).toBe(true);
    expect(validate(olderEdgeLogsReply)).toBe(true);
    expect(validate({ ...edgeLogsReply, next: 'later' })).toBe(false);
  });
});
