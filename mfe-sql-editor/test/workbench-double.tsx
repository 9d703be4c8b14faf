// A stand-in for `src/workbench` (the editor and results, built and tested by its own team): a textarea
// with the Workbench's props, so the snippet pages' tests exercise their own logic and not CodeMirror.
import type { ReactNode } from 'react';

export interface WorkbenchProps {
  sql: string;
  onSqlChange(sql: string): void;
  onSave?(): void;
  readOnly?: boolean;
  header?: ReactNode;
  autoFocus?: boolean;
}

export function Workbench({ sql, onSqlChange, onSave, readOnly, header, autoFocus }: WorkbenchProps) {
  return (
    <div className="workbench-double">
      {header}
      <textarea
        aria-label="SQL query"
        value={sql}
        readOnly={readOnly}
        autoFocus={autoFocus}
        onChange={(event) => onSqlChange(event.target.value)}
        onKeyDown={(event) => {
          if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
            event.preventDefault();
            onSave?.();
          }
        }}
      />
    </div>
  );
}
