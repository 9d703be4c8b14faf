import { useDispatch } from 'react-redux';
import { errorMessage, useToast, type AppDispatch } from '@dash/shell-sdk';
import { Messages } from '@dash/contracts';
import { objectsApi } from '../api/objects';
import { itemsLabel, movesInto, withActivity } from './operations';
import type { ExplorerScope } from './scope';
import type { ExplorerItem } from './state';
import type { ExplorerColumns } from './use-explorer-columns';

/** Moves items of one folder into another. */
export function useExplorerMoves({ target, dispatch }: ExplorerScope, { refetchAll, itemsGone }: Pick<ExplorerColumns, 'refetchAll' | 'itemsGone'>) {
  const appDispatch = useDispatch<AppDispatch>();
  const toast = useToast();

  /** Moves `items` into the typed folder ('' or "/" is the root). Resolves true when they moved. */
  const move = async (items: ExplorerItem[], targetFolder: string): Promise<boolean> => {
    const moves = movesInto(items, targetFolder);
    if (moves.length === 0) return true;
    try {
      await withActivity(dispatch, `Moving ${itemsLabel(items)}`, () => appDispatch(objectsApi.endpoints.storageMoveObjects.initiate({ ...target, body: { moves } })).unwrap());
    } catch (error) {
      toast('error', Messages.moveFailed, { description: errorMessage(error) });
      return false;
    }
    toast('success', Messages.moved(items.length, targetFolder));
    itemsGone(items);
    // Both the source and the target folder may be open.
    void refetchAll();
    return true;
  };

  return { move };
}
