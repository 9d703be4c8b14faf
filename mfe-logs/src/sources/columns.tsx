import type { ReactNode } from 'react';
import { formatBytes, type LogSourceName, type SourceEvent } from '@dash/contracts';

export interface Column {
  title: string;
  /** Right-aligned numbers. */
  numeric?: boolean;
  cell: (event: SourceEvent) => ReactNode;
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : '—');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function formatTime(iso: string): string {
  const date = new Date(iso);
  return `${date.toLocaleDateString(undefined, { day: '2-digit', month: 'short' })} ${date.toLocaleTimeString(undefined, { hour12: false })}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

function Status({ value }: { value: unknown }) {
  const status = num(value);
  if (status === null) return <>—</>;
  const tone = status >= 500 ? ' logs-status--error' : status >= 400 ? ' logs-status--warn' : '';
  return <span className={`logs-status${tone}`}>{status}</span>;
}

/** A level or severity, coloured as a status of the same gravity. */
function Level({ value }: { value: unknown }) {
  const level = text(value);
  const upper = level.toUpperCase();
  const tone = ['ERROR', 'FATAL', 'PANIC'].includes(upper) ? ' logs-status--error' : upper === 'WARNING' ? ' logs-status--warn' : '';
  return <span className={`logs-status logs-level${tone}`}>{level}</span>;
}

const duration = (v: unknown) => {
  const ms = num(v);
  return ms === null ? '—' : `${ms.toFixed(1)} ms`;
};

const time: Column = { title: 'Timestamp', cell: (e) => <span className="mono logs-time">{formatTime(e.timestamp)}</span> };
const status: Column = { title: 'Status', cell: (e) => <Status value={e.metadata.status} /> };
const method: Column = { title: 'Method', cell: (e) => <span className="mono">{text(e.metadata.method)}</span> };
const path: Column = { title: 'Path', cell: (e) => <span className="mono logs-path">{text(e.metadata.path)}</span> };
const took: Column = { title: 'Duration', numeric: true, cell: (e) => <span className="mono logs-duration">{duration(e.metadata.duration_ms)}</span> };
const role: Column = { title: 'Role', cell: (e) => text(e.metadata.role) };
const message: Column = { title: 'Message', cell: (e) => <span className="logs-message">{e.event_message}</span> };

/** What each source's table shows; the detail panel shows everything. */
export const SOURCE_COLUMNS: Record<LogSourceName, Column[]> = {
  edge: [time, status, method, path, took],
  postgrest: [time, status, method, path, role, took],
  storage: [
    time,
    status,
    { title: 'Operation', cell: (e) => <span className="mono">{text(e.metadata.operation)}</span> },
    { title: 'Bucket', cell: (e) => text(e.metadata.bucket) },
    { title: 'Object', cell: (e) => <span className="mono logs-path">{text(e.metadata.object)}</span> },
    {
      title: 'Bytes',
      numeric: true,
      cell: (e) => {
        const bytes = num(e.metadata.bytes);
        const arrow = e.metadata.direction === 'in' ? '↑ ' : e.metadata.direction === 'out' ? '↓ ' : '';
        return <span className="mono logs-duration">{bytes === null ? '—' : `${arrow}${formatBytes(bytes)}`}</span>;
      },
    },
    role,
  ],
  postgres: [
    time,
    { title: 'Severity', cell: (e) => <Level value={e.metadata.error_severity} /> },
    message,
    { title: 'User', cell: (e) => text(e.metadata.user_name) },
    took,
  ],
  auth: [
    time,
    { title: 'Level', cell: (e) => <Level value={e.metadata.level} /> },
    { title: 'Action', cell: (e) => <span className="mono">{text(e.metadata.action)}</span> },
    message,
    { title: 'User', cell: (e) => text(e.metadata.user_email) },
    { title: 'IP', cell: (e) => <span className="mono">{text(e.metadata.ip)}</span> },
  ],
  pooler: [time, { title: 'Level', cell: (e) => <Level value={e.metadata.level} /> }, message],
  realtime: [time, { title: 'Level', cell: (e) => <Level value={e.metadata.level} /> }, message],
};
