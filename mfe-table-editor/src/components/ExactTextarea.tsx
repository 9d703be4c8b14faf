import { useLayoutEffect, useMemo, useRef, type TextareaHTMLAttributes } from 'react';

/** The text a textarea shows for `raw`: browsers show (and give back) its \r\n and lone \r as \n. */
export function shownText(raw: string): string {
  return raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
}

/** Where in `raw` the character shown at `index` of shownText(raw) starts (a \r\n is one character shown). */
function rawIndex(raw: string, index: number): number {
  let at = 0;
  for (let shown = 0; shown < index && at < raw.length; shown++) at += raw[at] === '\r' && raw[at + 1] === '\n' ? 2 : 1;
  return at;
}

/**
 * `raw` after its textarea went from shownText(raw) to `next`: only the span that changed is replaced,
 * so line breaks elsewhere keep their \r\n or \r. The span is what differs between the common start and
 * end; `caret` (where the cursor is after the change) places it where either would do, as when a new line
 * is typed beside another.
 */
export function applyShownEdit(raw: string, next: string, caret?: number): string {
  if (!raw.includes('\r')) return next;
  const shown = shownText(raw);
  const common = Math.min(shown.length, next.length);
  const endLimit = caret !== undefined && caret >= 0 && caret <= next.length ? Math.min(common, next.length - caret) : common;
  let end = 0;
  while (end < endLimit && shown[shown.length - 1 - end] === next[next.length - 1 - end]) end++;
  let start = 0;
  while (start < common - end && shown[start] === next[start]) start++;
  const before = raw.slice(0, rawIndex(raw, start));
  const inserted = next.slice(start, next.length - end);
  const after = raw.slice(rawIndex(raw, shown.length - end));
  // A lone \r before a \n would make one \r\n of two line breaks: the new one is written \r\n.
  const merges = before.endsWith('\r') && (inserted || after).startsWith('\n');
  return before + (merges ? '\r' : '') + inserted + after;
}

type ExactTextareaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
};

/**
 * A textarea that edits `value` exactly, line breaks included: a plain one hands back every \r\n or \r as
 * \n, so any edit (or none, once the text was read back) would change them. It grows with its text up to
 * its CSS max-height, then scrolls.
 */
export function ExactTextarea({ value, onChange, ...props }: ExactTextareaProps) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const shown = useMemo(() => shownText(value), [value]);
  useLayoutEffect(() => {
    const area = ref.current;
    if (!area) return;
    area.style.height = 'auto';
    // scrollHeight leaves out the borders, which a border-box height includes.
    area.style.height = `${area.scrollHeight + area.offsetHeight - area.clientHeight}px`;
  }, [shown]);
  return <textarea ref={ref} {...props} value={shown} onChange={(e) => onChange(applyShownEdit(value, e.target.value, e.target.selectionEnd))} />;
}
