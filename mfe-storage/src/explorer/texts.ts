import type { ItemType } from './state';

/**
 * The explorer's dialog texts of spec section 2 that `Messages` does not hold (they are built from the
 * item names), plus a few of the explorer's own for failures the spec leaves unworded.
 */
export const ExplorerTexts = {
  deleteTitle: (count: number, name: string) => (count === 1 ? `Confirm deletion of ${name}` : `Confirm deletion of ${count} items`),
  deleteQuestion: (count: number, type: ItemType) =>
    count === 1 ? `Are you sure you want to delete the selected ${type}?` : `Are you sure you want to delete the selected ${count} items?`,
  moveTitle: (count: number, name: string) => (count === 1 ? `Moving ${name} within the bucket` : `Moving ${count} items within the bucket`),
  expiresOn: (date: string) => `URL will expire on ${date}`,
  pathPlaceholder: 'Parent Folder/Child Folder',
  searchPlaceholder: 'Search for a file or folder',
  deleteFailed: (name: string, message: string) => `Failed to delete ${name}: ${message}`,
  createFolderFailed: (name: string, message: string) => `Failed to create folder ${name}: ${message}`,
  getUrlFailed: (name: string, message: string) => `Failed to get the URL of ${name}: ${message}`,
  uploadSkipped: (count: number) => `Skipped ${count} file(s) whose path contains "#/".`,
  previewUnavailable: 'No preview is available for this type of file',
  previewFailed: 'The preview could not be loaded',
  itemsTotal: (size: string, count: number) => `${size} for ${count} ${count === 1 ? 'item' : 'items'}`,
};
