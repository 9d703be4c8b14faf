import { Messages, SNIPPET_PREVIEW_CHARS } from '@dash/contracts';

/**
 * A snippet's hover preview (shell spec, section 9): the first 43 characters of its SQL with every run
 * of whitespace collapsed to one space, or "This query is empty". Counts characters, not UTF-16 units,
 * so an emoji is never cut in half.
 */
export function snippetPreview(sql: string): string {
  const collapsed = sql.replace(/\s+/g, ' ').trim();
  if (collapsed === '') return Messages.queryEmpty;
  return Array.from(collapsed).slice(0, SNIPPET_PREVIEW_CHARS).join('');
}

/** The first line with text in it (the history panel's summary of a version), or "This query is empty". */
export function firstLine(sql: string): string {
  const line = sql.split('\n').find((l) => l.trim() !== '');
  return line === undefined ? Messages.queryEmpty : line.trim();
}
