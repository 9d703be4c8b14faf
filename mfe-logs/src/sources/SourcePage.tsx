import { useEffect, useMemo, useState } from 'react';
import { errorMessage, useDashConfig, useDebouncedValue, usePermission, useProjectRef } from '@dash/shell-sdk';
import { Button, EmptyState, ErrorPanel, NoAccess, PageHeader, SelectField, Spinner, TextField } from '@dash/shell-sdk/ui';
import {
  DEFAULT_LOG_TIME_RANGE,
  LOG_METHODS,
  LOG_SOURCE_FILTERS,
  LOG_SOURCES,
  LogsMessages,
  Messages,
  Permission,
  resolveLogTimeRange,
  type LogSourceName,
  type LogTimeRange,
  type SourceEvent,
  type SourceEventsPage,
} from '@dash/contracts';
import { useLazySourceEventsQuery, useSourceEventsQuery } from '../api/log-events';
import { TimeRangePicker } from '../components/TimeRangePicker';
import { SOURCE_COLUMNS } from './columns';
import { EventDetailPanel } from './EventDetailPanel';
import './sources.css';

type SourceDef = (typeof LOG_SOURCES)[number];

const PAGE_SIZE = 100;
/** Live tail's poll; with the writers' 0.5 s batches, an event shows within 2 s of happening. */
const TAIL_MS = 1000;
const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'];

/** What a source's page says about it; the realtime and pooler sources have no server in this product. */
const DESCRIPTIONS: Record<LogSourceName, string> = {
  edge: 'Requests served by the API gateway for this project, newest first.',
  postgres: "The project's Postgres server log: errors, statements slower than a second, and connections.",
  postgrest: "Requests to the project's data REST API: reading and writing table rows and running queries.",
  pooler: 'Connections through the connection pooler.',
  auth: 'Requests to the project\'s auth API (sign-ups, sign-ins, token refreshes, links, MFA, admin calls) with their audit action, and the dashboard sign-ins of this project\'s members.',
  storage: 'Every request to Storage: bucket, object, operation, bytes moved, status and role.',
  realtime: 'Realtime channel events.',
};
const NO_SERVER: Partial<Record<LogSourceName, string>> = {
  pooler: 'This project has no connection pooler: clients connect to Postgres directly, so there are no pooler logs to show.',
  realtime: 'This project has no Realtime server, so there are no realtime logs to show.',
};

/** A range's query: a preset's start moves by whole minutes (so a live tail keeps one cache entry a minute) and has no end. */
function rangeQuery(range: LogTimeRange): { from?: string; to?: string } {
  const resolved = resolveLogTimeRange(range);
  if ('error' in resolved) return {};
  if ('from' in range) return { from: resolved.from.toISOString(), to: resolved.to.toISOString() };
  return { from: new Date(Math.floor(resolved.from.getTime() / 60_000) * 60_000).toISOString() };
}

/** The page of one log source (LOG_SOURCES): gates, then its events. */
export function SourcePage({ source }: { source: LogSourceName }) {
  const def = LOG_SOURCES.find((s) => s.source === source)!;
  const analytics = usePermission(Permission.AnalyticsRead);
  const gate = usePermission('permission' in def ? def.permission : Permission.AnalyticsRead);
  const { mode, isLoading: configLoading } = useDashConfig();

  if (analytics.isLoading || gate.isLoading || configLoading) return <Spinner />;
  if (!analytics.can) return <NoAccess what={Messages.noLogsAccess} />;
  if (!gate.can) return <NoAccess what={`access your project's ${def.label.toLowerCase()} logs`} />;
  const header = <PageHeader title={def.label} description={DESCRIPTIONS[source]} />;
  if ('hostedOnly' in def && def.hostedOnly && mode === 'self-hosted') {
    return (
      <>
        {header}
        <EmptyState title={LogsMessages.poolerHostedOnly} />
      </>
    );
  }
  const none = NO_SERVER[source];
  if (none) {
    return (
      <>
        {header}
        <EmptyState title={Messages.noResults} description={none} />
      </>
    );
  }
  return <SourceEvents def={def} />;
}

function SourceEvents({ def }: { def: SourceDef }) {
  const ref = useProjectRef();
  const source = def.source;
  const filters = LOG_SOURCE_FILTERS[source];
  const columns = SOURCE_COLUMNS[source];
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), 300);
  const [level, setLevel] = useState('');
  const [status, setStatus] = useState('');
  const [method, setMethod] = useState('');
  const [range, setRange] = useState<LogTimeRange>(DEFAULT_LOG_TIME_RANGE);
  const [tail, setTail] = useState(false);
  const [older, setOlder] = useState<{ events: SourceEvent[]; next: SourceEventsPage['next'] } | null>(null);
  const [selected, setSelected] = useState<SourceEvent | null>(null);

  const args = {
    ref,
    source,
    limit: PAGE_SIZE,
    search: search || undefined,
    level: level || undefined,
    status: status || undefined,
    method: (method || undefined) as (typeof LOG_METHODS)[number] | undefined,
    ...rangeQuery(range),
  };
  const filterKey = JSON.stringify([search, level, status, method, range]);
  // New filters start again from the newest events.
  useEffect(() => setOlder(null), [filterKey]);

  const { data, error, isLoading, isFetching, refetch } = useSourceEventsQuery(args, { pollingInterval: tail ? TAIL_MS : 0, skipPollingIfUnfocused: false });
  const [fetchOlder, olderState] = useLazySourceEventsQuery();
  const events = useMemo(() => [...(data?.events ?? []), ...(older?.events ?? [])], [data, older]);
  const next = older ? older.next : data?.next ?? null;
  // The detail stays open while its event is listed (a filter that still matches it, a refresh).
  const detail = selected && events.some((e) => e.id === selected.id) ? selected : null;
  const filtered = Boolean(search || level || status || method);

  const toggleTail = () => {
    // Tailing shows the newest events: pages loaded further back go.
    if (!tail) setOlder(null);
    setTail(!tail);
  };
  const loadOlder = async () => {
    if (!next) return;
    setTail(false);
    const page = await fetchOlder({ ...args, before: next.before, before_id: next.before_id }).unwrap().catch(() => null);
    if (page) setOlder({ events: [...(older?.events ?? []), ...page.events], next: page.next });
  };

  return (
    <div className="logs-source">
      <PageHeader
        title={def.label}
        description={<>{DESCRIPTIONS[source]}{data ? ` Events are kept ${data.retention_days} days.` : ''}</>}
        actions={
          <>
            <Button variant={tail ? 'primary' : 'default'} aria-pressed={tail} onClick={toggleTail}>
              {tail ? 'Stop live tail' : 'Live tail'}
            </Button>
            <Button onClick={() => refetch()} loading={isFetching && !tail} disabled={tail}>Refresh</Button>
          </>
        }
      />
      <div className="logs-source__filters" role="search">
        <TextField label="Search events" placeholder="Text in the event message" value={searchText} onChange={(e) => setSearchText(e.target.value)} />
        {filters.level && (
          <SelectField label="Level" value={level} onChange={(e) => setLevel(e.target.value)}>
            <option value="">All levels</option>
            {filters.level.values.map((v) => <option key={v} value={v}>{v}</option>)}
          </SelectField>
        )}
        {filters.status && (
          <SelectField label="Status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">All statuses</option>
            {STATUS_CLASSES.map((v) => <option key={v} value={v}>{v}</option>)}
          </SelectField>
        )}
        {filters.method && (
          <SelectField label="Method" value={method} onChange={(e) => setMethod(e.target.value)}>
            <option value="">All methods</option>
            {LOG_METHODS.map((v) => <option key={v} value={v}>{v}</option>)}
          </SelectField>
        )}
        <TimeRangePicker value={range} onChange={setRange} />
      </div>
      {tail && <p className="logs-source__tail" role="status">Live tail: new events appear on top every {TAIL_MS / 1000} seconds.</p>}
      {isLoading ? (
        <Spinner label="Loading logs" />
      ) : error && !data ? (
        <ErrorPanel title="Failed to retrieve logs" message={errorMessage(error)} onRetry={() => refetch()} />
      ) : events.length === 0 ? (
        <EmptyState
          title={Messages.noResults}
          description={filtered ? 'No events match these filters in this time range.' : `No ${def.label} events were recorded for this project in this time range.`}
        />
      ) : (
        <div className={detail ? 'logs-source__body logs-source__body--detail' : 'logs-source__body'}>
          <div className="dash-card logs-source__list">
            <table className="dash-table logs-source__table" aria-label={`${def.label} logs`}>
              <thead>
                <tr>
                  {columns.map((c) => <th key={c.title} className={c.numeric ? 'logs-num' : undefined}>{c.title}</th>)}
                </tr>
              </thead>
              <tbody>
                {events.map((event) => (
                  <tr
                    key={event.id}
                    className="logs-source__row"
                    tabIndex={0}
                    aria-selected={detail?.id === event.id}
                    onClick={() => setSelected(event)}
                    onKeyDown={(e) => e.key === 'Enter' && setSelected(event)}
                  >
                    {columns.map((c) => <td key={c.title} className={c.numeric ? 'logs-num' : undefined}>{c.cell(event)}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="logs-source__more">
              {olderState.error && <span className="logs-source__error" role="alert">Failed to load older events: {errorMessage(olderState.error)}</span>}
              {next ? (
                <Button onClick={loadOlder} loading={olderState.isFetching}>Load older</Button>
              ) : (
                <span className="logs-source__end">No older events in this time range.</span>
              )}
            </div>
          </div>
          {detail && <EventDetailPanel source={source} event={detail} onClose={() => setSelected(null)} />}
        </div>
      )}
    </div>
  );
}
