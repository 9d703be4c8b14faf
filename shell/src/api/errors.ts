import { errorMessage } from '@dash/shell-sdk';

/** HTTP status of a failed RTK Query call, or its error kind (FETCH_ERROR, PARSING_ERROR, ...). */
export function errorStatus(error: unknown): number | string | undefined {
  if (!error || typeof error !== 'object' || !('status' in error)) return undefined;
  const status = (error as { status: unknown }).status;
  return typeof status === 'number' || typeof status === 'string' ? status : undefined;
}

/** Code and message for the full-page error, from a failed call. */
export function describeError(error: unknown, fallback = 'Unexpected error'): { code: string; message: string } {
  const status = errorStatus(error);
  const data = error && typeof error === 'object' ? (error as { data?: { code?: unknown } }).data : undefined;
  const code = typeof data?.code === 'string' ? data.code : status !== undefined ? String(status) : 'UNEXPECTED_ERROR';
  return { code, message: errorMessage(error, fallback) };
}
