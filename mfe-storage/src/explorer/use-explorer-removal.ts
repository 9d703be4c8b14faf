import { useDispatch } from 'react-redux';
import { errorMessage, useToast, type AppDispatch } from '@dash/shell-sdk';
import { Messages } from '@dash/contracts';
import { objectsApi } from '../api/objects';
import { itemsLabel, removalBatches, withActivity } from './operations';
import { parentPath } from './paths';
import type { ExplorerScope } from './scope';
import type { ExplorerItem } from './state';
import { ExplorerTexts } from './texts';
import type { ExplorerColumns } from './use-explorer-columns';

/** Deletes items of one folder, in as many calls as the route's limit needs. */
export function useExplorerRemoval({ target, dispatch }: ExplorerScope, { refreshFolder, itemsGone }: Pick<ExplorerColumns, 'refreshFolder' | 'itemsGone'>) {
  const appDispatch = useDispatch<AppDispatch>();
  const toast = useToast();

  const remove = async (items: ExplorerItem[]) => {
    const [first] = items;
    if (!first) return;
    const folder = parentPath(first.path);
    const label = itemsLabel(items);
    try {
      await withActivity(dispatch, `Deleting ${label}`, async () => {
        for (const paths of removalBatches(items)) {
          await appDispatch(objectsApi.endpoints.storageRemoveObjects.initiate({ ...target, body: { paths } })).unwrap();
        }
      });
    } catch (error) {
      toast('error', ExplorerTexts.deleteFailed(label, errorMessage(error)));
      refreshFolder(folder);
      return;
    }
    toast('success', items.length === 1 ? Messages.deletedItem(first.name) : Messages.deletedFiles(items.length));
    itemsGone(items);
    refreshFolder(folder);
  };

  return { remove };
}
