import { useRef } from 'react';
import { nanoid } from '@reduxjs/toolkit';
import { errorMessage, useToast } from '@dash/shell-sdk';
import { Messages, STORAGE_UPLOAD_CONCURRENCY } from '@dash/contracts';
import { uploadFile } from '../api/objects';
import { useStorageConfigQuery } from '../api/storage-config';
import { INVALID_NAME_TOAST_MS } from './names';
import { joinPath } from './paths';
import type { ExplorerScope } from './scope';
import { explorerActions as act } from './state';
import { ExplorerTexts } from './texts';
import { limitLabel, planUpload, runWithConcurrency, type UploadSource } from './upload-plan';
import type { ExplorerColumns } from './use-explorer-columns';

/** How long the toast about files over the size limit stays: it carries a hint to read. */
const SIZE_LIMIT_TOAST_MS = 8_000;

/**
 * Uploads into a column, from the file picker or a drop: the project's size limit, a few files at a time,
 * progress per file in the operations panel.
 */
export function useExplorerUploads(
  { target, stateRef, dispatch }: ExplorerScope,
  { canUpload, refreshFolder }: { canUpload: boolean } & Pick<ExplorerColumns, 'refreshFolder'>,
) {
  const toast = useToast();
  const { data: storageConfig } = useStorageConfigQuery({ ref: target.ref });
  const fileInputRef = useRef<HTMLInputElement>(null);
  const uploadColumn = useRef<number | null>(null);

  /** Opens the file picker; the files go to column `columnIndex` (the current folder by default). */
  const chooseFiles = (columnIndex?: number) => {
    uploadColumn.current = columnIndex ?? stateRef.current.columns.length - 1;
    fileInputRef.current?.click();
  };

  const upload = async (sources: UploadSource[], columnIndex: number) => {
    const column = stateRef.current.columns[columnIndex];
    if (!column || sources.length === 0) return;
    if (!canUpload) {
      toast('error', Messages.needPermissionsUpload);
      return;
    }
    const limit = storageConfig?.fileSizeLimit;
    const plan = planUpload(sources, { limit, existingNames: column.items.map((i) => i.name) });
    if (plan.skipped.length) toast('info', ExplorerTexts.uploadSkipped(plan.skipped.length), { durationMs: INVALID_NAME_TOAST_MS });
    if (plan.tooLarge.length && limit !== undefined) {
      toast('error', Messages.uploadTooLarge(plan.tooLarge.length, limitLabel(limit)), { description: Messages.uploadLimitHint, durationMs: SIZE_LIMIT_TOAST_MS });
    }
    if (plan.uploads.length === 0) return;

    const entries = plan.uploads.map((u) => ({ id: nanoid(), name: u.path, total: u.file.size }));
    dispatch(act.uploadsQueued(entries));
    const results = await runWithConcurrency(plan.uploads, STORAGE_UPLOAD_CONCURRENCY, async (u, index) => {
      const { id } = entries[index]!;
      // Progress is shown by whole percents: a render per XHR event would be wasted on a large batch.
      let shown = -1;
      const onProgress = (loaded: number) => {
        const percent = Math.floor((loaded * 100) / Math.max(u.file.size, 1));
        if (percent === shown) return;
        shown = percent;
        dispatch(act.uploadProgressed({ id, loaded }));
      };
      try {
        await uploadFile({ ...target, path: joinPath(column.path, u.path), file: u.file, onProgress });
        dispatch(act.uploadSettled({ id, ok: true }));
      } catch (error) {
        dispatch(act.uploadSettled({ id, ok: false }));
        throw error;
      }
    });

    const failures = results.flatMap((r, index) => (r.status === 'rejected' ? [{ name: plan.uploads[index]!.path, message: errorMessage(r.reason) }] : []));
    const done = results.length - failures.length;
    if (done > 0) toast('success', Messages.uploaded(done, results.length));
    if (failures.length === 1) toast('error', Messages.uploadFileFailed(failures[0]!.name, failures[0]!.message));
    if (failures.length > 1) toast('error', Messages.uploadCountFailed(failures.length), { description: failures.map((f) => `${f.name}: ${f.message}`).join('\n') });
    dispatch(act.uploadsCleared({ ids: entries.map((e) => e.id) }));
    refreshFolder(column.path);
  };

  const onFilesChosen = (files: FileList | null) => {
    const columnIndex = uploadColumn.current ?? stateRef.current.columns.length - 1;
    const sources = Array.from(files ?? []).map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
    void upload(sources, columnIndex);
  };

  return { fileInputRef, chooseFiles, upload, onFilesChosen };
}
