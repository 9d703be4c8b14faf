import { useDispatch } from 'react-redux';
import { errorMessage, useToast, type AppDispatch } from '@dash/shell-sdk';
import { Messages, SELECTION_ZIP_NAME, SIGNED_URL_PRESETS } from '@dash/contracts';
import { downloadObject, objectsApi, zipObjects } from '../api/objects';
import { absoluteUrl, copyText, saveBlob } from './browser';
import { withActivity } from './operations';
import { folderKey, parentPath } from './paths';
import type { ExplorerScope } from './scope';
import { selectedItems, type ExplorerItem } from './state';
import { ExplorerTexts } from './texts';

/** Downloads of files, folders and the selection, and copies of an item's URL or path. */
export function useExplorerDownloads({ bucket, target, stateRef, dispatch }: ExplorerScope) {
  const appDispatch = useDispatch<AppDispatch>();
  const toast = useToast();

  const downloadFile = async (item: ExplorerItem) => {
    try {
      const blob = await withActivity(dispatch, `Downloading ${item.name}`, () => downloadObject({ ...target, path: item.path }));
      saveBlob(blob, item.name);
    } catch (error) {
      toast('error', Messages.downloadFailed(item.name), { description: errorMessage(error) });
    }
  };

  /** A folder downloads as `{folder}.zip`, its entries under the folder's name. */
  const downloadFolder = async (item: ExplorerItem) => {
    const name = `${item.name}.zip`;
    const root = parentPath(item.path);
    try {
      const blob = await withActivity(dispatch, `Downloading ${name}`, () => zipObjects({ ...target, body: { paths: [folderKey(item.path)], ...(root ? { root } : {}), name } }));
      saveBlob(blob, name);
    } catch (error) {
      toast('error', Messages.downloadFolderFailed(item.name), { description: errorMessage(error) });
    }
  };

  /** One selected file downloads as itself; several as one zip. */
  const downloadSelection = async () => {
    const items = selectedItems(stateRef.current);
    const [first] = items;
    if (!first) return;
    if (items.length === 1) return downloadFile(first);
    const root = parentPath(first.path);
    try {
      const blob = await withActivity(dispatch, `Downloading ${SELECTION_ZIP_NAME}`, () =>
        zipObjects({ ...target, body: { paths: items.map((i) => i.path), ...(root ? { root } : {}), name: SELECTION_ZIP_NAME } }),
      );
      saveBlob(blob, SELECTION_ZIP_NAME);
    } catch (error) {
      toast('error', Messages.downloadFailed(SELECTION_ZIP_NAME), { description: errorMessage(error) });
    }
  };

  /** Copies a file's URL: the public URL in a public bucket, else a URL signed for `expiresIn` seconds. */
  const copyUrl = async (item: ExplorerItem, expiresIn: number = SIGNED_URL_PRESETS.week) => {
    try {
      const url = bucket.public
        ? (await appDispatch(objectsApi.endpoints.storagePublicUrl.initiate({ ...target, path: item.path })).unwrap()).publicUrl
        : (await appDispatch(objectsApi.endpoints.storageSignUrl.initiate({ ...target, path: item.path, expiresIn })).unwrap()).signedUrl;
      await copyText(absoluteUrl(url));
      toast('success', Messages.copiedUrl(item.name));
    } catch (error) {
      toast('error', ExplorerTexts.getUrlFailed(item.name, errorMessage(error)));
    }
  };

  const copyPath = async (item: ExplorerItem) => {
    try {
      await copyText(item.path);
      toast('success', Messages.copiedPath(item.name));
    } catch (error) {
      toast('error', errorMessage(error));
    }
  };

  return { downloadFile, downloadFolder, downloadSelection, copyUrl, copyPath };
}
