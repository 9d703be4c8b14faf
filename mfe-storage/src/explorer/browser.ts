import type { UploadSource } from './upload-plan';

/** Hands a Blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has started by the time the click returns, but some browsers read the URL a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export async function copyText(text: string): Promise<void> {
  const clipboard = globalThis.navigator?.clipboard;
  if (!clipboard) throw new Error('Copying to the clipboard is not available in this window');
  await clipboard.writeText(text);
}

/** A URL the service gave, made absolute against this page (signed URLs may be relative). */
export function absoluteUrl(url: string): string {
  return new URL(url, globalThis.location?.origin).toString();
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function entryFile(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, prefix: string, out: UploadSource[]): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    out.push({ file: await entryFile(entry as FileSystemFileEntry), relativePath: path });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (100 in Chromium) until it answers none.
  for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
    for (const child of batch) await walk(child, path, out);
  }
}

/** The files of a drop, with dropped folders walked so their files keep their relative paths. */
export async function droppedFiles(dataTransfer: DataTransfer): Promise<UploadSource[]> {
  const entries = Array.from(dataTransfer.items ?? [])
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.length === 0 || entries.some((entry) => entry === null)) {
    return Array.from(dataTransfer.files ?? []).map((file) => ({ file, relativePath: file.name }));
  }
  const out: UploadSource[] = [];
  for (const entry of entries) await walk(entry!, '', out);
  return out;
}

/** Whether a drag carries files (not text or a link). */
export const dragHasFiles = (dataTransfer: DataTransfer | null) => Boolean(dataTransfer && Array.from(dataTransfer.types ?? []).includes('Files'));
