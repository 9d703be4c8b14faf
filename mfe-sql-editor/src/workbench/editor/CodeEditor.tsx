import { useEffect, useImperativeHandle, useLayoutEffect, useRef, type Ref } from 'react';
import { autocompletion, closeBrackets, closeBracketsKeymap, closeCompletion, completionKeymap, completionStatus, startCompletion } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import { bracketMatching, foldGutter, foldKeymap, indentOnInput } from '@codemirror/language';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Annotation, Compartment, EditorState, Prec, type Extension } from '@codemirror/state';
import {
  crosshairCursor,
  drawSelection,
  dropCursor,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  placeholder,
  rectangularSelection,
} from '@codemirror/view';
import type { CompletionCatalog } from '@dash/contracts';
import { minimalChange } from '../sql-text';
import { catalogNamespace, columnCompletionSource, functionCompletionSource } from './completion';
import { errorMarkField, setErrorMark } from './error-mark';
import { dashboardEditorTheme } from './theme';
import type { CodeEditorProps, EditorHandle } from './types';

/*
 * The CodeMirror 6 editor (its own chunk, loaded lazily). Controlled: the document follows `value`, and
 * every edit is reported with `onChange`. Completion comes from lang-sql (keywords, and the catalog's
 * schemas, tables and columns) plus the catalog's functions.
 */

/** Marks a transaction that brings the document in line with `value`, so it is not reported back. */
const fromOutside = Annotation.define<boolean>();

function language(catalog: CompletionCatalog | undefined): Extension {
  if (!catalog) return sql({ dialect: PostgreSQL });
  return [
    sql({ dialect: PostgreSQL, schema: catalogNamespace(catalog), defaultSchema: 'public' }),
    PostgreSQL.language.data.of({ autocomplete: functionCompletionSource(catalog.functions) }),
    PostgreSQL.language.data.of({ autocomplete: columnCompletionSource(catalog) }),
  ];
}

function readOnlyMode(readOnly: boolean): Extension {
  return readOnly ? [EditorState.readOnly.of(true), EditorView.contentAttributes.of({ 'aria-readonly': 'true' })] : [];
}

export default function CodeEditor({ ref, ...props }: CodeEditorProps & { ref?: Ref<EditorHandle> }) {
  const host = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const latest = useRef(props);
  const compartments = useRef({ language: new Compartment(), readOnly: new Compartment() }).current;
  useLayoutEffect(() => {
    latest.current = props;
  });

  useLayoutEffect(() => {
    let hadSelection = false;
    const runKeys = keymap.of([
      {
        key: 'Mod-Enter',
        preventDefault: true,
        run: (view) => {
          closeCompletion(view);
          latest.current.onRun();
          return true;
        },
      },
      { key: 'Mod-s', preventDefault: true, run: () => (latest.current.onSave(), true) },
    ]);
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          history(),
          foldGutter(),
          drawSelection(),
          dropCursor(),
          EditorState.allowMultipleSelections.of(true),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          autocompletion(),
          rectangularSelection(),
          crosshairCursor(),
          highlightActiveLine(),
          highlightSelectionMatches(),
          Prec.highest(runKeys),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, ...completionKeymap, indentWithTab]),
          compartments.language.of(language(latest.current.catalog)),
          compartments.readOnly.of(readOnlyMode(latest.current.readOnly)),
          errorMarkField,
          dashboardEditorTheme,
          placeholder('Write SQL here, then run it with Ctrl+Enter (Cmd+Enter on a Mac)'),
          EditorView.contentAttributes.of({ 'aria-label': 'SQL query' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !update.transactions.some((tr) => tr.annotation(fromOutside))) {
              latest.current.onChange(update.state.doc.toString());
            }
            const hasSelection = !update.state.selection.main.empty;
            if (hasSelection !== hadSelection) {
              hadSelection = hasSelection;
              latest.current.onSelectionChange(hasSelection);
            }
          }),
        ],
      }),
    });
    viewRef.current = view;
    if (latest.current.autoFocus) view.focus();
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, [compartments]);

  // The document follows `value` (a restored version, a reload); the caret stays where the text did not change.
  useLayoutEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    const change = minimalChange(view.state.doc.toString(), props.value);
    if (change) view.dispatch({ changes: change, annotations: fromOutside.of(true) });
  }, [props.value]);

  // A new catalog (after DDL) reaches an open completion list at once, not at the next keystroke.
  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    view.dispatch({ effects: compartments.language.reconfigure(language(props.catalog)) });
    if (completionStatus(view.state) !== null) startCompletion(view);
  }, [compartments, props.catalog]);

  useEffect(() => {
    viewRef.current?.dispatch({ effects: compartments.readOnly.reconfigure(readOnlyMode(props.readOnly)) });
  }, [compartments, props.readOnly]);

  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    const mark = props.errorMark;
    const index = mark ? Math.min(mark.index, view.state.doc.length) : 0;
    view.dispatch({ effects: mark ? [setErrorMark.of({ ...mark, index }), EditorView.scrollIntoView(index, { y: 'center' })] : [setErrorMark.of(null)] });
  }, [props.errorMark]);

  useImperativeHandle(
    ref,
    (): EditorHandle => ({
      doc: () => viewRef.current?.state.doc.toString() ?? latest.current.value,
      selection: () => {
        const main = viewRef.current?.state.selection.main;
        return main && !main.empty ? { from: main.from, to: main.to } : null;
      },
      replace: (from, to, text) => {
        const view = viewRef.current;
        if (!view) return;
        view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from, head: from + text.length }, scrollIntoView: true, userEvent: 'input.format' });
        view.focus();
      },
      focus: () => viewRef.current?.focus(),
    }),
    [],
  );

  return <div ref={host} className="wb-editor__cm" />;
}
