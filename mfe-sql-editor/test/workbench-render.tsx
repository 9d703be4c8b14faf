// Renders the workbench as a page would (controlled text, a header), inside the real store and router,
// with `fetch` answered at the network edge.
import { act, configure, screen } from '@testing-library/react';
import { useState } from 'react';
import { EditorView } from '@codemirror/view';
import { mockFetch, permissionsAnswer, renderArea, type MockAnswer } from '@dash/shell-sdk/testing';
import type { OrgRole } from '@dash/contracts';
import { Workbench } from '../src/workbench';
import { WB_REF, catalog, wbPaths } from './workbench-fixtures';

// jsdom has no layout: CodeMirror measures text through Range rectangles, which it lacks.
const emptyRect = { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) } as DOMRect;
if (!Range.prototype.getClientRects) Range.prototype.getClientRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
if (!Range.prototype.getBoundingClientRect) Range.prototype.getBoundingClientRect = () => emptyRect;

// The grid and the editor render a lot; on a busy two-core machine a first render can pass 1 s.
configure({ asyncUtilTimeout: 4000 });

export interface RenderOptions {
  sql?: string;
  role?: OrgRole;
  readOnly?: boolean;
  onSave?: () => void;
  answers?: Record<string, MockAnswer>;
}

export function renderWorkbench({ sql = 'select 1', role = 'owner', readOnly = false, onSave, answers = {} }: RenderOptions = {}) {
  const fetchMock = mockFetch({
    ...permissionsAnswer(WB_REF, role),
    [`GET ${wbPaths.completions}`]: { body: catalog },
    ...answers,
  });
  function Page() {
    const [text, setText] = useState(sql);
    return (
      <>
        <Workbench sql={text} onSqlChange={setText} onSave={onSave} readOnly={readOnly} header={<h1>My query</h1>} />
        <output aria-label="Page text">{text}</output>
      </>
    );
  }
  const rendered = renderArea(Page, { mount: 'sql', url: `/project/${WB_REF}/sql/x` });
  return { ...rendered, fetchMock };
}

/** The CodeMirror view, once its chunk has loaded. */
export async function editorView(): Promise<EditorView> {
  const content = await screen.findByRole('textbox', { name: 'SQL query' });
  const view = EditorView.findFromDOM(content);
  if (!view) throw new Error('No CodeMirror view');
  return view;
}

/** The page's copy of the text (what `onSqlChange` last gave it). */
export function pageText(): string {
  return screen.getByRole('status', { name: 'Page text' }).textContent ?? '';
}

/** Ctrl+key on the editor's content, as a keyboard would send it. */
export function pressMod(target: Element, key: string): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, ctrlKey: true, bubbles: true, cancelable: true });
  act(() => {
    target.dispatchEvent(event);
  });
  return event;
}

/**
 * jsdom lays nothing out, so react-data-grid would see a 1×1 viewport and render almost no rows or
 * columns. Grid tests give elements a desktop-sized box instead.
 */
export function giveElementsASize(width = 1600, height = 700) {
  const original = HTMLElement.prototype.getBoundingClientRect;
  beforeAll(() => {
    HTMLElement.prototype.getBoundingClientRect = function () {
      return { x: 0, y: 0, top: 0, left: 0, right: width, bottom: height, width, height, toJSON: () => ({}) } as DOMRect;
    };
  });
  afterAll(() => {
    HTMLElement.prototype.getBoundingClientRect = original;
  });
}

/** A reply that waits until the test lets it go. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
