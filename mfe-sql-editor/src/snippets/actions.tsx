import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useDispatch } from 'react-redux';
import { useMatch, useNavigate } from 'react-router-dom';
import { errorMessage, useConfirm, usePermission, useProjectRef, useToast, type AppDispatch } from '@dash/shell-sdk';
import { type MenuItem } from '@dash/shell-sdk/ui';
import { Messages, Permission, type RouteBody, type SqlSnippet, type contentRoutes } from '@dash/contracts';
import {
  removeSnippetsLocally,
  snippetsApi,
  useDeleteSnippetsMutation,
  useDuplicateSnippetMutation,
  useListSnippetsQuery,
  useShareSnippetMutation,
  useUpdateSnippetMutation,
} from '../api/snippets';
import { useSqlEditorCurrentUserQuery } from '../api/current-user';
import { sqlPaths } from '../paths';
import { forgetDeletedSnippet } from './drafts';
import { isContentGone, isVersionConflict, newSnippetId } from './errors';
import { isFavorite, isOwn, sidebarOrder } from './grouping';
import { RenameDialog } from './RenameDialog';
import { needPermissionTo, onlyOwnerCan } from './texts';

export interface SnippetActions {
  /** The signed-in member's id (undefined while loading). */
  userId: string | undefined;
  /** The member may create, share and duplicate snippets. */
  canSave: boolean;
  openRename(snippet: SqlSnippet, sql?: string): void;
  toggleFavorite(snippet: SqlSnippet): Promise<void>;
  share(snippet: SqlSnippet): Promise<void>;
  duplicate(snippet: SqlSnippet): Promise<void>;
  /** Asks, then deletes one snippet. */
  confirmDelete(snippet: SqlSnippet): Promise<void>;
  /** Deletes snippets (no question asked); resolves true when they are gone. */
  remove(ids: string[], mode: 'single' | 'bulk'): Promise<boolean>;
  /** The actions menu of a snippet (sidebar item and toolbar), with what the member may not do disabled and why. */
  menuItems(snippet: SqlSnippet, sql?: string): MenuItem[];
}

const Context = createContext<SnippetActions | null>(null);

export function useSnippetActions(): SnippetActions {
  const actions = useContext(Context);
  if (!actions) throw new Error('useSnippetActions needs SnippetActionsProvider');
  return actions;
}

type UpdateBody = RouteBody<typeof contentRoutes.updateSnippet>;

/**
 * What can be done to a snippet, shared by the sidebar and the editor's toolbar, with the spec's toasts
 * and the deletion rules: afterwards, with no snippet left the page goes to a new query; when the open
 * snippet was deleted, to the first remaining one. The service checks every permission again.
 */
export function SnippetActionsProvider({ children }: { children: ReactNode }) {
  const ref = useProjectRef();
  const dispatch = useDispatch<AppDispatch>();
  const navigate = useNavigate();
  const toast = useToast();
  const confirm = useConfirm();
  const { can: canSave } = usePermission(Permission.UserContentSqlCreate);
  const { data: user } = useSqlEditorCurrentUserQuery();
  const { data: snippets } = useListSnippetsQuery({ ref });
  const openId = useMatch('/project/:ref/sql/:id')?.params.id;
  const [update] = useUpdateSnippetMutation();
  const [shareSnippet] = useShareSnippetMutation();
  const [duplicateSnippet] = useDuplicateSnippetMutation();
  const [deleteSnippets] = useDeleteSnippetsMutation();
  const [renaming, setRenaming] = useState<{ snippet: SqlSnippet; sql: string } | null>(null);
  const userId = user?.id;

  /** A change of name, description or favourite: a stale version is retried once on the current one (no text is involved). */
  const updateMeta = useCallback(
    async (snippet: SqlSnippet, body: Omit<UpdateBody, 'base_version'>) => {
      try {
        return await update({ ref, id: snippet.id, body: { ...body, base_version: snippet.version } }).unwrap();
      } catch (error) {
        if (!isVersionConflict(error)) throw error;
        const current = await dispatch(snippetsApi.endpoints.getSnippet.initiate({ ref, id: snippet.id }, { forceRefetch: true, subscribe: false })).unwrap();
        return update({ ref, id: snippet.id, body: { ...body, base_version: current.version } }).unwrap();
      }
    },
    [dispatch, ref, update],
  );

  const remove = useCallback(
    async (ids: string[], mode: 'single' | 'bulk') => {
      if (ids.length === 0) return true;
      try {
        await deleteSnippets({ ref, ids }).unwrap();
      } catch (error) {
        if (!isContentGone(error)) {
          toast('error', (mode === 'single' ? Messages.deleteQueryFailed : Messages.deleteQueriesFailed)(errorMessage(error)));
          return false;
        }
        // Already deleted (another tab, another member's bulk delete): it goes here too.
        dispatch(removeSnippetsLocally(ref, ids));
      }
      for (const id of ids) forgetDeletedSnippet(ref, id);
      const remaining = sidebarOrder(snippets ?? [], userId).filter((s) => !ids.includes(s.id));
      if (remaining.length === 0) navigate(sqlPaths.newQuery(ref));
      else if (openId !== undefined && ids.includes(openId)) navigate(sqlPaths.snippet(ref, remaining[0].id));
      return true;
    },
    [deleteSnippets, dispatch, navigate, openId, ref, snippets, toast, userId],
  );

  const actions = useMemo<SnippetActions>(() => {
    const openRename = (snippet: SqlSnippet, sql = snippet.content.sql) => setRenaming({ snippet, sql });

    const toggleFavorite = async (snippet: SqlSnippet) => {
      try {
        await updateMeta(snippet, { content: { favorite: !snippet.content.favorite } });
      } catch (error) {
        toast('error', `Failed to update query: ${errorMessage(error)}`);
      }
    };

    const share = async (snippet: SqlSnippet) => {
      const ok = await confirm({
        title: 'Share query with project',
        message: (
          <>
            Every member of the project will see <strong>{snippet.name}</strong> and may run it or make a personal copy; only you can change
            it. A shared query cannot be made private again.
          </>
        ),
        confirmLabel: 'Share query',
      });
      if (!ok) return;
      try {
        await shareSnippet({ ref, id: snippet.id }).unwrap();
        toast('success', `Shared "${snippet.name}" with the project`);
      } catch (error) {
        toast('error', Messages.shareQueryFailed(errorMessage(error)));
      }
    };

    const duplicate = async (snippet: SqlSnippet) => {
      const newId = newSnippetId();
      try {
        await duplicateSnippet({ ref, id: snippet.id, newId }).unwrap();
      } catch (error) {
        toast('error', Messages.duplicateQueryFailed(errorMessage(error)));
        return;
      }
      navigate(sqlPaths.snippet(ref, newId));
    };

    const confirmDelete = async (snippet: SqlSnippet) => {
      const ok = await confirm({
        title: 'Delete query',
        message: (
          <>
            Delete <strong>{snippet.name}</strong>? {snippet.visibility === 'project' ? 'It is removed for every member of the project. ' : ''}This
            cannot be undone.
          </>
        ),
        confirmLabel: 'Delete query',
        variant: 'danger',
      });
      if (ok) await remove([snippet.id], 'single');
    };

    const menuItems = (snippet: SqlSnippet, sql?: string): MenuItem[] => {
      const own = isOwn(snippet, userId);
      if (!own) {
        return [
          {
            label: 'Duplicate as personal copy',
            onSelect: () => void duplicate(snippet),
            disabledReason: canSave ? undefined : needPermissionTo('duplicate queries'),
          },
          { label: 'Rename query', onSelect: () => undefined, disabledReason: onlyOwnerCan('rename it') },
          { label: 'Delete query', onSelect: () => undefined, danger: true, disabledReason: onlyOwnerCan('delete it') },
        ];
      }
      const missing = (action: string) => (canSave ? undefined : needPermissionTo(action));
      const items: MenuItem[] = [
        { label: 'Rename query', onSelect: () => openRename(snippet, sql), disabledReason: missing('rename queries') },
        {
          label: isFavorite(snippet, userId) ? 'Remove from favorites' : 'Add to favorites',
          onSelect: () => void toggleFavorite(snippet),
          disabledReason: missing('change queries'),
        },
      ];
      if (snippet.visibility === 'user') {
        items.push({ label: 'Share with project', onSelect: () => void share(snippet), disabledReason: missing('share queries') });
      }
      items.push({ label: 'Delete query', onSelect: () => void confirmDelete(snippet), danger: true, disabledReason: missing('delete queries') });
      return items;
    };

    return { userId, canSave, openRename, toggleFavorite, share, duplicate, confirmDelete, remove, menuItems };
  }, [canSave, confirm, duplicateSnippet, navigate, ref, remove, shareSnippet, toast, updateMeta, userId]);

  const onRename = async (snippet: SqlSnippet, name: string, description: string | null) => {
    try {
      await updateMeta(snippet, { name, description });
      return true;
    } catch (error) {
      toast('error', Messages.renameQueryFailed(errorMessage(error)));
      return false;
    }
  };

  return (
    <Context.Provider value={actions}>
      {children}
      {renaming && (
        <RenameDialog
          snippet={renaming.snippet}
          sql={renaming.sql}
          onSave={(name, description) => onRename(renaming.snippet, name, description)}
          onClose={() => setRenaming(null)}
        />
      )}
    </Context.Provider>
  );
}
