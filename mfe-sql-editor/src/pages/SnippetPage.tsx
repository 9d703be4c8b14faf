import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { useDispatch } from 'react-redux';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { skipToken } from '@reduxjs/toolkit/query';
import { errorMessage, useConfirm, useProjectRef, useToast, type AppDispatch } from '@dash/shell-sdk';
import { Badge, Button, EmptyState, ErrorPanel, MenuButton, Spinner } from '@dash/shell-sdk/ui';
import { Messages, type SnippetVersion, type SqlSnippet } from '@dash/contracts';
import { Workbench } from '../workbench';
import { snippetsApi, useGetSnippetQuery } from '../api/snippets';
import { useSqlEditorCurrentUserQuery } from '../api/current-user';
import { NEW_QUERY_ID, sqlPaths } from '../paths';
import { useSnippetActions } from '../snippets/actions';
import { ConflictDialog, type ConflictChoice } from '../snippets/ConflictDialog';
import { wasDeletedHere } from '../snippets/drafts';
import { isNotFound } from '../snippets/errors';
import { isOwn } from '../snippets/grouping';
import { HistoryPanel } from '../snippets/HistoryPanel';
import { SnippetSession, type SaveStatus, type SessionEnv, type SessionSnapshot } from '../snippets/session';
import { needPermissionTo, UNTITLED_QUERY } from '../snippets/texts';

/** What the templates page passes to the new-query page for a member who may not save. */
export interface NewQueryState {
  template?: { name: string; sql: string };
}

/**
 * `/sql/new` and `/sql/:id`. One editor per opened snippet; when the new query's first edit creates
 * it, the URL becomes `/sql/{id}` and the same editor stays (text, caret and undo history kept).
 */
export function SnippetPage() {
  const ref = useProjectRef();
  const { id = NEW_QUERY_ID } = useParams();
  const navigate = useNavigate();
  const [session, setSession] = useState<{ id: string; key: number; adopted: string | null }>({ id, key: 0, adopted: null });
  let current = session;
  if (session.id !== id) {
    current = { id, key: session.adopted === id ? session.key : session.key + 1, adopted: null };
    setSession(current);
  }
  const onCreated = useCallback(
    (created: string) => {
      setSession((s) => ({ ...s, adopted: created }));
      navigate(sqlPaths.snippet(ref, created), { replace: true });
    },
    [navigate, ref],
  );
  return <SnippetEditor key={`${ref}:${current.key}`} routeId={id} onCreated={onCreated} />;
}

const STATUS_TEXT: Record<SaveStatus, string> = {
  idle: '',
  unsaved: 'Unsaved changes',
  saving: 'Saving…',
  saved: 'Saved',
  error: 'Unsaved changes',
  conflict: 'Unsaved changes',
  local: 'Not saved',
};

function statusText(snap: SessionSnapshot): string {
  if (snap.status === 'idle') return snap.snippetId === null ? '' : 'Saved';
  return STATUS_TEXT[snap.status];
}

function SnippetEditor({ routeId, onCreated }: { routeId: string; onCreated: (id: string) => void }) {
  const ref = useProjectRef();
  const dispatch = useDispatch<AppDispatch>();
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const confirm = useConfirm();
  const actions = useSnippetActions();
  const { canSave } = actions;
  const user = useSqlEditorCurrentUserQuery();
  const [historyOpen, setHistoryOpen] = useState(false);
  const [choosing, setChoosing] = useState<ConflictChoice | null>(null);
  const openedNew = useRef(routeId === NEW_QUERY_ID).current;

  const env: SessionEnv = {
    ref,
    canSave,
    createSnippet: async (body) => {
      const snippet = await dispatch(snippetsApi.endpoints.createSnippet.initiate({ ref, body })).unwrap();
      await dispatch(snippetsApi.util.upsertQueryData('getSnippet', { ref, id: snippet.id }, snippet));
      return snippet;
    },
    updateSnippet: (id, body) => dispatch(snippetsApi.endpoints.updateSnippet.initiate({ ref, id, body })).unwrap(),
    fetchSnippet: (id) => dispatch(snippetsApi.endpoints.getSnippet.initiate({ ref, id }, { forceRefetch: true, subscribe: false })).unwrap(),
    onCreated,
    onError: (message) => toast('error', message),
    isGone: (id) => wasDeletedHere(ref, id),
  };
  const [session] = useState(
    () =>
      new SnippetSession(
        env,
        openedNew ? { kind: 'new', template: (location.state as NewQueryState | null)?.template } : { kind: 'existing', id: routeId },
      ),
  );
  useLayoutEffect(() => session.configure(env));
  useLayoutEffect(() => {
    session.attach();
    return () => session.detach();
  }, [session]);
  const snap = useSyncExternalStore(session.subscribe, session.getSnapshot);

  const { data: snippet, error, isFetching, refetch } = useGetSnippetQuery(snap.snippetId ? { ref, id: snap.snippetId } : skipToken);
  const userId = user.data?.id;
  const userSettled = !user.isLoading;
  useEffect(() => {
    if (snippet && userSettled) session.load(snippet, isOwn(snippet, userId));
  }, [session, snippet, userSettled, userId]);
  useEffect(() => {
    if (snippet) session.adopt(snippet);
  }, [session, snippet]);

  // A template handed over in the location's state is used once: a reload must not put it back over later edits.
  useEffect(() => {
    if ((location.state as NewQueryState | null)?.template) navigate(location.pathname, { replace: true, state: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const restored = snap.restored && snap.snippetId !== null && canSave;
  useEffect(() => {
    if (restored) toast('info', 'Unsaved changes to this query were restored from this browser');
  }, [restored, toast]);

  const onSqlChange = useCallback((sql: string) => session.edit(sql), [session]);
  const onSave = useCallback(() => session.saveNow(), [session]);

  if (!snap.ready) {
    if (error) {
      const status = (error as { status?: unknown }).status;
      if (isNotFound(error) || status === 400) {
        return (
          <div className="sql-page-pad">
            <EmptyState
              title="Query not found"
              description="It may have been deleted, or the link is wrong."
              action={
                <Link className="dash-btn dash-btn--primary" to={sqlPaths.newQuery(ref)}>
                  New query
                </Link>
              }
            />
          </div>
        );
      }
      return <ErrorPanel title="Failed to load query" message={errorMessage(error)} onRetry={() => void refetch()} retrying={isFetching} />;
    }
    return <Spinner label="Loading query" />;
  }

  const readOnly = snippet !== undefined && !isOwn(snippet, userId);
  const name = snippet?.name ?? snap.newName ?? UNTITLED_QUERY;

  const onChoose = async (choice: ConflictChoice) => {
    if (choice === 'reload') {
      session.closeConflict();
      const ok = await confirm({
        title: 'Reload the saved version?',
        message: 'The editor gets the saved version of this query, and the changes you made here are lost.',
        confirmLabel: 'Reload',
        variant: 'danger',
      });
      if (ok) await session.reload();
      else session.openConflict();
      return;
    }
    setChoosing(choice);
    if (choice === 'overwrite') {
      await session.overwrite();
      setChoosing(null);
      return;
    }
    const copyId = await session.saveAsCopy(snippet?.name ?? name, snippet?.description ?? null);
    setChoosing(null);
    if (copyId) navigate(sqlPaths.snippet(ref, copyId));
  };

  const onRestore = async (version: SnippetVersion) => {
    const unsaved = snap.status === 'unsaved' || snap.status === 'error' || snap.status === 'conflict' || snap.status === 'saving';
    if (unsaved) {
      const ok = await confirm({
        title: `Restore version ${version.version}?`,
        message: 'The editor gets the text of this version, and your unsaved changes are lost.',
        confirmLabel: 'Restore',
      });
      if (!ok) return;
    }
    session.restore(version.sql);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented) return;
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
      event.preventDefault();
      session.saveNow();
    }
  };

  const header = (
    <div className="sql-snippet__header">
      <div className="sql-toolbar">
        <div className="sql-toolbar__title">
          <h1 title={name}>{name}</h1>
          {snippet && <Badge tone={snippet.visibility === 'project' ? 'brand' : 'neutral'}>{snippet.visibility === 'project' ? 'Project' : 'Private'}</Badge>}
          {readOnly && <Badge tone="warning">Read-only</Badge>}
          {!readOnly && (
            <span className={`sql-status sql-status--${snap.status}`} role="status">
              {statusText(snap)}
            </span>
          )}
          {snap.status === 'error' && snap.error && (
            <span className="sql-status__error" role="alert">
              Not saved: {snap.error}
              <Button size="sm" variant="ghost" onClick={onSave}>
                Retry
              </Button>
            </span>
          )}
        </div>
        <div className="sql-toolbar__actions">
          {snap.conflict && !snap.conflictOpen && (
            <Button size="sm" variant="danger" onClick={() => session.openConflict()}>
              Resolve conflict
            </Button>
          )}
          {snap.snippetId !== null && (
            <Button size="sm" onClick={() => setHistoryOpen((open) => !open)} aria-pressed={historyOpen}>
              History
            </Button>
          )}
          {snippet && <MenuButton label="Query actions" items={actions.menuItems(snippet, snap.sql)} />}
        </div>
      </div>
      {!canSave && (
        <p className="sql-notice sql-notice--banner" role="note">
          {Messages.queriesNotSaved}
        </p>
      )}
      {readOnly && snippet && <ReadOnlyNotice snippet={snippet} />}
    </div>
  );

  return (
    <div className="sql-snippet" onKeyDown={onKeyDown}>
      <div className="sql-snippet__main">
        <Workbench sql={snap.sql} onSqlChange={onSqlChange} onSave={onSave} readOnly={readOnly} header={header} autoFocus={openedNew} />
      </div>
      {historyOpen && snap.snippetId !== null && (
        <HistoryPanel
          snippetId={snap.snippetId}
          currentSql={snap.sql}
          canRestore={!readOnly}
          onRestore={(version) => void onRestore(version)}
          onClose={() => setHistoryOpen(false)}
        />
      )}
      {snap.conflict && snap.conflictOpen && (
        <ConflictDialog server={snap.conflict.server} busy={choosing} onChoose={(choice) => void onChoose(choice)} onClose={() => session.closeConflict()} />
      )}
    </div>
  );
}

/** Another member's project snippet: it runs here but changes only as a personal copy. */
function ReadOnlyNotice({ snippet }: { snippet: SqlSnippet }) {
  const { canSave, duplicate } = useSnippetActions();
  const [busy, setBusy] = useState(false);
  return (
    <div className="sql-notice sql-notice--banner sql-readonly" role="note">
      <span>
        This query belongs to {snippet.owner_name} and is shared with the project: you can run it, not change it. Duplicate it to make a
        personal copy you can edit.
      </span>
      <Button
        size="sm"
        loading={busy}
        disabledReason={canSave ? undefined : needPermissionTo('duplicate queries')}
        onClick={async () => {
          setBusy(true);
          await duplicate(snippet);
          setBusy(false);
        }}
      >
        Duplicate
      </Button>
    </div>
  );
}
