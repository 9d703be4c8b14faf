import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import type { Extension } from '@codemirror/state';

/** The editor in the dashboard's theme: its colours are the page's CSS variables. */
const editorTheme = EditorView.theme(
  {
    '&': { height: '100%', color: 'var(--text)', backgroundColor: 'var(--bg)', fontSize: '13px' },
    '&.cm-focused': { outline: 'none' },
    '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '20px' },
    '.cm-content': { padding: '10px 0', caretColor: 'var(--brand)' },
    '.cm-line': { padding: '0 14px 0 10px' },
    '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--brand)', borderLeftWidth: '2px' },
    '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': {
      backgroundColor: 'rgba(62, 207, 142, 0.22)',
    },
    // Tints of the text colour, so they show on the light theme's white as on the dark one's black.
    '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--text) 4%, transparent)' },
    '.cm-gutters': { backgroundColor: 'var(--bg-surface)', color: 'var(--text-faint)', borderRight: '1px solid var(--border)' },
    '.cm-activeLineGutter': { backgroundColor: 'var(--bg-raised)', color: 'var(--text-muted)' },
    '.cm-lineNumbers .cm-gutterElement': { padding: '0 10px 0 12px', minWidth: '32px' },
    '.cm-foldPlaceholder': { backgroundColor: 'var(--bg-raised)', border: '1px solid var(--border-strong)', color: 'var(--text-muted)' },
    '.cm-matchingBracket, &.cm-focused .cm-matchingBracket': { backgroundColor: 'rgba(62, 207, 142, 0.18)', outline: '1px solid rgba(62, 207, 142, 0.45)' },
    '.cm-nonmatchingBracket': { color: 'var(--danger)' },
    '.cm-selectionMatch': { backgroundColor: 'color-mix(in srgb, var(--text) 10%, transparent)' },
    '.cm-searchMatch': { backgroundColor: 'rgba(241, 161, 13, 0.25)', outline: '1px solid rgba(241, 161, 13, 0.5)' },
    '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: 'rgba(241, 161, 13, 0.45)' },
    '.cm-placeholder': { color: 'var(--text-faint)' },
    '.cm-panels': { backgroundColor: 'var(--bg-surface)', color: 'var(--text)' },
    '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--border)' },
    '.cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--border)' },
    '.cm-panel input, .cm-panel button, .cm-panel label': { fontSize: '12.5px', color: 'var(--text)' },
    '.cm-textfield': { backgroundColor: 'var(--bg)', border: '1px solid var(--border-strong)', borderRadius: '4px' },
    '.cm-button': { backgroundImage: 'none', backgroundColor: 'var(--bg-raised)', border: '1px solid var(--border-strong)', borderRadius: '4px' },
    '.cm-tooltip': { backgroundColor: 'var(--bg-raised)', color: 'var(--text)', border: '1px solid var(--border-strong)', borderRadius: '6px' },
    '.cm-tooltip.cm-tooltip-autocomplete > ul': { fontFamily: 'var(--mono)', fontSize: '12.5px', maxHeight: '16em' },
    '.cm-tooltip.cm-tooltip-autocomplete > ul > li': { padding: '2px 8px' },
    '.cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'rgba(62, 207, 142, 0.2)', color: 'var(--text)' },
    '.cm-completionDetail': { color: 'var(--text-faint)', fontStyle: 'normal', marginLeft: '10px' },
    '.cm-completionMatchedText': { textDecoration: 'none', color: 'var(--brand)' },
    '.cm-completionInfo': { whiteSpace: 'pre', fontFamily: 'var(--mono)', fontSize: '12px', padding: '6px 8px' },
    '.cm-sql-error-line': { backgroundColor: 'rgba(242, 107, 107, 0.12)' },
    '.cm-sql-error-mark': {
      textDecoration: 'underline wavy var(--danger)',
      textUnderlineOffset: '3px',
      backgroundColor: 'rgba(242, 107, 107, 0.25)',
    },
  },
);

/**
 * Token colours: keywords in the brand green, types blue, strings warm, numbers violet. CSS variables,
 * so they follow the page's light or dark theme.
 */
const highlight = HighlightStyle.define([
  { tag: t.keyword, color: 'var(--brand)' },
  { tag: [t.typeName, t.standard(t.name)], color: 'var(--syntax-type)' },
  { tag: [t.string, t.special(t.string)], color: 'var(--syntax-string)' },
  { tag: [t.number, t.bool, t.null], color: 'var(--syntax-number)' },
  { tag: [t.lineComment, t.blockComment, t.comment], color: 'var(--text-faint)', fontStyle: 'italic' },
  { tag: [t.operator, t.punctuation], color: 'var(--text-muted)' },
  { tag: t.special(t.name), color: 'var(--warning)' },
  { tag: t.name, color: 'var(--text)' },
  { tag: t.invalid, color: 'var(--danger)' },
]);

/** Follows the page's light or dark theme: every colour above is a CSS variable of the page. */
export const dashboardEditorTheme: Extension = [editorTheme, syntaxHighlighting(highlight)];
