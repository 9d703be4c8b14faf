import { useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';

const INDENT = '  ';

/**
 * A plain SQL editor: monospace with line numbers, Tab inserts two spaces (Escape, then Tab, leaves the
 * editor, so the keyboard is never trapped), Ctrl/Cmd+Enter runs.
 */
export function SqlTextarea({ inputRef: innerRef, value, onChange, onRun, onSelectionChange }: {
  inputRef: RefObject<HTMLTextAreaElement | null>;
  value: string;
  onChange: (value: string) => void;
  onRun: () => void;
  onSelectionChange: (hasSelection: boolean) => void;
}) {
  const gutterRef = useRef<HTMLDivElement>(null);
  const caret = useRef<number | null>(null);
  const [tabLeaves, setTabLeaves] = useState(false);

  useLayoutEffect(() => {
    if (caret.current !== null && innerRef.current) {
      innerRef.current.setSelectionRange(caret.current, caret.current);
      caret.current = null;
      onSelectionChange(false);
    }
  }, [value, onSelectionChange]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
      event.preventDefault();
      onRun();
      return;
    }
    if (event.key === 'Escape') {
      setTabLeaves(true);
      return;
    }
    if (event.key === 'Tab' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey && !tabLeaves) {
      event.preventDefault();
      const { selectionStart, selectionEnd } = event.currentTarget;
      caret.current = selectionStart + INDENT.length;
      onChange(value.slice(0, selectionStart) + INDENT + value.slice(selectionEnd));
      return;
    }
    if (tabLeaves) setTabLeaves(false);
  };

  const lines = value.split('\n').length;
  return (
    <div className="sql-code">
      <div className="sql-code__gutter" ref={gutterRef} aria-hidden>
        {Array.from({ length: lines }, (_, i) => (
          <div key={i}>{i + 1}</div>
        ))}
      </div>
      <textarea
        ref={innerRef}
        className="sql-code__input"
        aria-label="SQL query"
        aria-keyshortcuts="Control+Enter Meta+Enter"
        placeholder="select * from ..."
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        autoCorrect="off"
        wrap="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setTabLeaves(false)}
        onSelect={(e) => onSelectionChange(e.currentTarget.selectionEnd > e.currentTarget.selectionStart)}
        onScroll={(e) => {
          if (gutterRef.current) gutterRef.current.scrollTop = e.currentTarget.scrollTop;
        }}
      />
    </div>
  );
}
