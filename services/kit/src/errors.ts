import type { ErrorReply } from '@dash/contracts';

/** An error whose status and message are meant for the client. Anything else becomes a 500. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    /** More of the error reply's optional fields (a statement error's detail, hint and position; a conflict's current state). */
    readonly details?: Pick<ErrorReply, 'detail' | 'hint' | 'position' | 'current'>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code?: string) => new HttpError(400, message, code);
export const unauthorized = (message: string) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string, code?: string) => new HttpError(409, message, code);

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};
export const statusText = (status: number): string => STATUS_TEXT[status] ?? (status < 500 ? 'Bad Request' : 'Error');
