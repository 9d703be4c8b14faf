import { lazy } from 'react';

/*
 * The editor's side panels and dialogs, fetched the first time one opens rather than with the grid: the
 * forms (react-final-form) and the CSV import (papaparse) are not needed to show a table's rows, the first
 * screen of a cold visit. Rendered inside a <Suspense>; a chunk that fails to load reaches the area's error
 * boundary, whose Retry loads it again.
 */
export const TableEditor = lazy(() => import('./forms/TableEditor').then((m) => ({ default: m.TableEditor })));
export const ColumnEditor = lazy(() => import('./forms/ColumnEditor').then((m) => ({ default: m.ColumnEditor })));
export const CsvImportDialog = lazy(() => import('./csv/CsvImportDialog').then((m) => ({ default: m.CsvImportDialog })));
export const RowPanel = lazy(() => import('./grid/RowPanel').then((m) => ({ default: m.RowPanel })));
