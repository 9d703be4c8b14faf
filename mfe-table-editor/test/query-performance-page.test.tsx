import { screen } from '@testing-library/react';
import { mockFetch, permissionsAnswer, renderArea } from '@dash/shell-sdk/testing';
import { FEATURE_FLAGS, STATEMENTS_SETUP, type StatementsState } from '@dash/contracts';
import { DatabaseRoutes } from '../src/database/DatabaseRoutes';

/* Database → Query Performance when pg_stat_statements is not counting: the steps that get it going, and no reset. */

const open = (statements: StatementsState) => {
  mockFetch({
    ...permissionsAnswer('default', 'owner'),
    'GET /api/platform/config': { body: { mode: 'hosted', flags: Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, false])) } },
    'GET /api/pg-meta/default/query-performance': { body: statements },
  });
  renderArea(DatabaseRoutes, { mount: 'database', url: '/project/default/database/query-performance' });
};

describe('QueryPerformancePage', () => {
  it.each([['not_loaded' as const], ['not_installed' as const]])('says how to get pg_stat_statements counting when it is %s', async (state) => {
    open({ state });
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain(STATEMENTS_SETUP[state].title);
    const steps = [...note.querySelectorAll('li code')].map((code) => code.textContent);
    expect(steps).toEqual(STATEMENTS_SETUP[state].steps);
    // Nothing is counted, so there is nothing to reset.
    expect((screen.getByRole('button', { name: 'Reset report' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
