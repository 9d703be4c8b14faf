/** Business constants of the spec. */
export const TABLE_PAGE_SIZES = [100, 500, 1000] as const;
export const DEFAULT_TABLE_PAGE_SIZE = 100;
export const ENTITY_PAGE_SIZE = 100;
export const CSV_EXPORT_ROW_LIMIT = 500_000;
/** Long text, JSON and array cells are cut to this many characters (then '...') in a page of rows. */
export const TABLE_CELL_MAX_CHARS = 10_240;
/** Above this many rows the grid's count is the planner's estimate unless an exact count is asked for. */
export const EXACT_COUNT_THRESHOLD = 50_000;
/** Row loading: retry delay and the most attempts (spec section 4). */
export const ROW_LOAD_RETRY_DELAY_MS = 5_000;
export const ROW_LOAD_MAX_ATTEMPTS = 3;
/** Grid: column widths and debounces (spec section 9). */
export const GRID_MIN_COLUMN_WIDTH = 100;
export const GRID_SELECT_COLUMN_WIDTH = 65;
export const GRID_ADD_COLUMN_WIDTH = 100;
export const GRID_SAVE_DEBOUNCE_MS = 500;
export const CHANGES_SAVED_INDICATOR_MS = 2_000;
/** CSV import body limit through the services. */
export const CSV_IMPORT_MAX_BYTES = 1024 * 1024 * 1024;
export const STORAGE_LIST_PAGE_SIZE = 200;
export const DEFAULT_GLOBAL_UPLOAD_LIMIT_BYTES = 53_687_091_200;
export const FREE_PLAN_UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;
export const MAX_UPLOAD_LIMIT_BYTES = 5_368_709_120;

/** SQL editor limits: rows returned to the browser and how long one run may take. */
export const SQL_EDITOR_MAX_ROWS = 1000;
export const SQL_EDITOR_STATEMENT_TIMEOUT_MS = 60_000;
export const SQL_EDITOR_MAX_QUERY_BYTES = 1_000_000;

/** Edge logs page. */
export const LOGS_DEFAULT_LIMIT = 100;
export const LOGS_MAX_LIMIT = 1000;

/** Sign-in rate limit: attempts per window per email and client address. */
export const SIGN_IN_MAX_ATTEMPTS = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
