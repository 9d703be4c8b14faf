import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useDispatch } from 'react-redux';
import { errorMessage, useConfirm, useProjectRef, useToast, type AppDispatch } from '@dash/shell-sdk';
import { Button, PageHeader } from '@dash/shell-sdk/ui';
import { Messages } from '@dash/contracts';
import { SQL_QUICKSTARTS, SQL_TEMPLATES } from '../templates';
import { snippetsApi } from '../api/snippets';
import { NEW_QUERY_ID, sqlPaths } from '../paths';
import { useSnippetActions } from '../snippets/actions';
import { readDraft } from '../snippets/drafts';
import { newSnippetId } from '../snippets/errors';
import type { NewQueryState } from './SnippetPage';

interface Script {
  id: string;
  title: string;
  description: string;
  sql: string;
}

const PREVIEW_LINES = 6;

const PAGES = {
  templates: {
    title: 'Templates',
    description: 'Scripts for common tasks: tables with row-level security, helper functions, triggers and storage policies.',
    scripts: SQL_TEMPLATES as readonly Script[],
  },
  quickstarts: {
    title: 'Quickstarts',
    description: 'Small complete schemas to start a project from, with sample data.',
    scripts: SQL_QUICKSTARTS as readonly Script[],
  },
};

function preview(sql: string): string {
  const lines = sql.replace(/^\s*\n/, '').split('\n');
  return lines.length > PREVIEW_LINES ? `${lines.slice(0, PREVIEW_LINES).join('\n')}\n…` : lines.join('\n');
}

/**
 * `/sql/templates` and `/sql/quickstarts`: one card per script. Opening one saves it as a new personal
 * snippet named after it and opens that; a member who may not save gets it in an unsaved new query.
 */
export function ScriptsPage({ kind }: { kind: keyof typeof PAGES }) {
  const ref = useProjectRef();
  const dispatch = useDispatch<AppDispatch>();
  const navigate = useNavigate();
  const toast = useToast();
  const confirm = useConfirm();
  const { canSave } = useSnippetActions();
  const [opening, setOpening] = useState<string | null>(null);
  const page = PAGES[kind];

  const open = async (script: Script) => {
    if (!canSave) {
      const draft = readDraft(ref, NEW_QUERY_ID);
      if (draft && draft.sql.trim() !== '' && draft.sql !== script.sql) {
        const ok = await confirm({
          title: 'Replace your unsaved query?',
          message: 'Your queries are not saved. Opening this script replaces the text of your new query.',
          confirmLabel: 'Open script',
        });
        if (!ok) return;
      }
      const state: NewQueryState = { template: { name: script.title, sql: script.sql } };
      navigate(sqlPaths.newQuery(ref), { state });
      return;
    }
    setOpening(script.id);
    const id = newSnippetId();
    try {
      await dispatch(
        snippetsApi.endpoints.createSnippet.initiate({
          ref,
          body: {
            id,
            name: script.title,
            description: script.description.slice(0, 1000) || null,
            content: { sql: script.sql, favorite: false },
            visibility: 'user',
          },
        }),
      ).unwrap();
    } catch (error) {
      setOpening(null);
      toast('error', Messages.createQueryFailed(errorMessage(error)));
      return;
    }
    setOpening(null);
    navigate(sqlPaths.snippet(ref, id));
  };

  return (
    <div className="sql-page-pad">
      <PageHeader title={page.title} description={page.description} />
      <ul className="sql-cards" aria-label={page.title}>
        {page.scripts.map((script) => (
          <li key={script.id} className="sql-card">
            <h2 className="sql-card__title">{script.title}</h2>
            <p className="sql-card__description">{script.description}</p>
            <pre className="sql-card__sql">
              {preview(script.sql)}
            </pre>
            <Button
              size="sm"
              variant="primary"
              className="sql-card__open"
              aria-label={`Open ${script.title}`}
              loading={opening === script.id}
              disabled={opening !== null && opening !== script.id}
              onClick={() => void open(script)}
            >
              {canSave ? 'Open as a query' : 'Open'}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
