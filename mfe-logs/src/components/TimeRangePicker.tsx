import { useId, useState } from 'react';
import { Button } from '@dash/shell-sdk/ui';
import { LOG_TIME_RANGE_PRESETS, resolveLogTimeRange, type LogTimeRange } from '@dash/contracts';

const CUSTOM = 'custom';

/** `<input type="datetime-local">` works in local time without a zone: convert to and from ISO. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function fromLocalInput(value: string): string | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The last hour as a starting point when switching to a custom range. */
function lastHour(): { from: string; to: string } {
  const to = new Date();
  return { from: new Date(to.getTime() - 3_600_000).toISOString(), to: to.toISOString() };
}

/**
 * The time range of a logs view: a preset (last 15 minutes, hour, day, 7 days) or a custom from–to,
 * applied by the server. A custom range changes only on Apply, and only when it is valid.
 */
export function TimeRangePicker({ value, onChange }: { value: LogTimeRange; onChange: (range: LogTimeRange) => void }) {
  const id = useId();
  const [custom, setCustom] = useState<{ from: string; to: string } | null>('from' in value ? value : null);
  const [error, setError] = useState<string | null>(null);
  const selected = custom ? CUSTOM : 'preset' in value ? value.preset : CUSTOM;

  const choose = (choice: string) => {
    setError(null);
    if (choice === CUSTOM) {
      setCustom('from' in value ? value : lastHour());
      return;
    }
    setCustom(null);
    onChange({ preset: choice as Extract<LogTimeRange, { preset: string }>['preset'] });
  };

  const apply = () => {
    if (!custom) return;
    const resolved = resolveLogTimeRange(custom);
    if ('error' in resolved) {
      setError(resolved.error);
      return;
    }
    setError(null);
    onChange(custom);
  };

  return (
    <div className="logs-range">
      <label htmlFor={id} className="logs-range__label">Time range</label>
      <select id={id} className="dash-select" value={selected} onChange={(e) => choose(e.target.value)}>
        {LOG_TIME_RANGE_PRESETS.map((preset) => (
          <option key={preset.value} value={preset.value}>{preset.label}</option>
        ))}
        <option value={CUSTOM}>Custom</option>
      </select>
      {custom && (
        <>
          <input
            type="datetime-local"
            className="dash-input"
            aria-label="From"
            value={toLocalInput(custom.from)}
            onChange={(e) => {
              const from = fromLocalInput(e.target.value);
              if (from) setCustom({ ...custom, from });
            }}
          />
          <span className="logs-range__dash">–</span>
          <input
            type="datetime-local"
            className="dash-input"
            aria-label="To"
            value={toLocalInput(custom.to)}
            onChange={(e) => {
              const to = fromLocalInput(e.target.value);
              if (to) setCustom({ ...custom, to });
            }}
          />
          <Button size="sm" onClick={apply}>Apply</Button>
          {error && <span className="dash-field__error" role="alert">{error}</span>}
        </>
      )}
    </div>
  );
}
