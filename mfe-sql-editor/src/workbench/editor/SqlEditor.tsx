import { Component, lazy, Suspense, useState, type ReactNode, type Ref } from 'react';
import type { CodeEditorProps, EditorHandle } from './types';

/*
 * The editor area: CodeMirror comes in its own chunk, loaded on first use, so the page paints first.
 * Until it arrives the text shows in a placeholder of the same size; if the chunk cannot load, a plain
 * text area edits the same text (with a Retry), so the query is never out of reach.
 */

const loadCodeEditor = () => import(/* webpackChunkName: "sql-codemirror" */ './CodeEditor');

function Placeholder({ value }: { value: string }) {
  const lines = Math.max(1, value.split('\n').length);
  return (
    <div className="wb-editor__placeholder" aria-busy="true" aria-label="Loading the editor">
      <div className="wb-editor__placeholder-gutter" aria-hidden>
        {Array.from({ length: Math.min(lines, 200) }, (_, i) => (
          <div key={i}>{i + 1}</div>
        ))}
      </div>
      <pre className="wb-editor__placeholder-text">{value}</pre>
    </div>
  );
}

class LoadBoundary extends Component<{ fallback: (retry: () => void) => ReactNode; onRetry: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return this.props.fallback(() => {
      this.setState({ failed: false });
      this.props.onRetry();
    });
  }
}

function TextareaFallback({ props, onRetry }: { props: CodeEditorProps; onRetry: () => void }) {
  return (
    <div className="wb-editor__fallback">
      <p className="wb-editor__fallback-note" role="alert">
        The code editor did not load; you can still edit and run the query here.{' '}
        <button type="button" className="wb-link-button" onClick={onRetry}>
          Retry
        </button>
      </p>
      <textarea
        aria-label="SQL query"
        className="wb-editor__textarea"
        spellCheck={false}
        value={props.value}
        readOnly={props.readOnly}
        onChange={(event) => props.onChange(event.target.value)}
        onSelect={(event) => props.onSelectionChange(event.currentTarget.selectionEnd > event.currentTarget.selectionStart)}
      />
    </div>
  );
}

export function SqlEditor({ editorRef, ...props }: CodeEditorProps & { editorRef: Ref<EditorHandle> }) {
  // A new lazy component per attempt: React keeps a rejected lazy rejected, webpack retries the chunk.
  const [Editor, setEditor] = useState(() => lazy(loadCodeEditor));
  return (
    <div className="wb-editor" data-testid="sql-editor">
      <LoadBoundary onRetry={() => setEditor(() => lazy(loadCodeEditor))} fallback={(retry) => <TextareaFallback props={props} onRetry={retry} />}>
        <Suspense fallback={<Placeholder value={props.value} />}>
          <Editor ref={editorRef} {...props} />
        </Suspense>
      </LoadBoundary>
    </div>
  );
}
