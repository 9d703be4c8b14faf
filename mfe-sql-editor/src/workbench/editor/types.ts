import type { CompletionCatalog } from '@dash/contracts';

/** What the workbench asks of the editor once it has loaded. */
export interface EditorHandle {
  /** The document as it is now (a keystroke may not have reached the page's state yet). */
  doc(): string;
  /** The main selection, or null when it is empty (a caret). */
  selection(): { from: number; to: number } | null;
  /** Replaces a range (one undoable change) and selects the new text. */
  replace(from: number, to: number, text: string): void;
  focus(): void;
}

/** The error a failed run points at; a new object each time, so the same place is marked again. */
export interface ErrorMark {
  index: number;
  message: string;
}

export interface CodeEditorProps {
  value: string;
  onChange(value: string): void;
  readOnly: boolean;
  autoFocus: boolean;
  /** Schemas, tables, columns and functions to complete; undefined until loaded (keywords only). */
  catalog: CompletionCatalog | undefined;
  errorMark: ErrorMark | null;
  /** Ctrl/Cmd+Enter. */
  onRun(): void;
  /** Ctrl/Cmd+S. */
  onSave(): void;
  /** Called when the selection turns non-empty or empty. */
  onSelectionChange(hasSelection: boolean): void;
}
