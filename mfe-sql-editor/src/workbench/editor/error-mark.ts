import { RangeSetBuilder, StateEffect, StateField, type EditorState } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';

/*
 * The place a Postgres error points at: its line gets a background and the character a wavy underline.
 * Set by the workbench after a failed run; any edit of the document clears it.
 */

export const setErrorMark = StateEffect.define<{ index: number; message: string } | null>();

const lineMark = Decoration.line({ class: 'cm-sql-error-line' });

function decorations(state: EditorState, at: { index: number; message: string }): DecorationSet {
  const index = Math.max(0, Math.min(at.index, state.doc.length));
  const line = state.doc.lineAt(index);
  const builder = new RangeSetBuilder<Decoration>();
  builder.add(line.from, line.from, lineMark);
  // The character at the position, or the last one of the line when the error is past its end.
  const from = index < line.to ? index : Math.max(line.from, line.to - 1);
  const to = Math.min(line.to, from + 1);
  if (to > from) builder.add(from, to, Decoration.mark({ class: 'cm-sql-error-mark', attributes: { title: at.message } }));
  return builder.finish();
}

export const errorMarkField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    for (const effect of tr.effects) {
      if (effect.is(setErrorMark)) return effect.value ? decorations(tr.state, effect.value) : Decoration.none;
    }
    return tr.docChanged ? Decoration.none : value;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/** Whether the document shows an error mark now (tests, and the workbench's own bookkeeping). */
export function hasErrorMark(state: EditorState): boolean {
  return state.field(errorMarkField, false)?.size ? true : false;
}
