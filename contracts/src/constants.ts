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
/** Storage (storage spec, section 9). */
export const STORAGE_LIST_PAGE_SIZE = 200;
/** Walks of a whole folder (zip, move and delete of folders) read this many objects per page. */
export const STORAGE_WALK_PAGE_SIZE = 10_000;
/** Every project starts with this upload limit; on the free plan it cannot change. */
export const FREE_PLAN_UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;
export const DEFAULT_UPLOAD_LIMIT_BYTES = FREE_PLAN_UPLOAD_LIMIT_BYTES;
/** The most a paid plan's upload limit may be (5 GB). */
export const MAX_UPLOAD_LIMIT_BYTES = 5_368_709_120;
export const STORAGE_UPLOAD_CONCURRENCY = 10;
export const STORAGE_DOWNLOAD_CONCURRENCY = 10;
export const STORAGE_PREVIEW_MAX_BYTES = 10_000_000;
/** Preview URLs are signed for a year and cached. */
export const STORAGE_PREVIEW_URL_EXPIRY_SECONDS = 31_536_000;
/** A file without metadata this old is corrupted (its upload never finished). */
export const STORAGE_CORRUPTED_AFTER_MS = 900_000;
export const STORAGE_UPLOAD_CACHE_CONTROL = '3600';
export const STORAGE_SEARCH_DEBOUNCE_MS = 300;
export const STORAGE_PREVIEW_PANEL_WIDTH = 450;
export const STORAGE_BREADCRUMB_COLLAPSE_ABOVE = 5;
/** Marks an otherwise empty folder; hidden from listings. */
export const EMPTY_FOLDER_PLACEHOLDER = '.emptyFolderPlaceholder';
/** Signed URL presets and the custom expiry units, in seconds. */
export const SIGNED_URL_PRESETS = { week: 604_800, month: 2_592_000, year: 31_536_000 } as const;
export const EXPIRY_UNIT_SECONDS = { days: 86_400, weeks: 604_800, months: 2_592_000, years: 31_536_000 } as const;
export const STORAGE_POLICY_NAME_MAX = 50;
/** Selected files download as one zip of this name. */
export const SELECTION_ZIP_NAME = 'storage-download.zip';

/**
 * SQL editor limits: rows of each result returned to the browser (the rest comes with an export), the
 * default statement timeout (a project setting, between the two bounds) and the text's size.
 */
export const SQL_EDITOR_MAX_ROWS = 100_000;
export const SQL_EDITOR_STATEMENT_TIMEOUT_MS = 60_000;
export const SQL_EDITOR_STATEMENT_TIMEOUT_MIN_MS = 1_000;
export const SQL_EDITOR_STATEMENT_TIMEOUT_MAX_MS = 3_600_000;
/** Snippet hover preview: the first characters of the SQL, whitespace collapsed (shell spec, section 9). */
export const SNIPPET_PREVIEW_CHARS = 43;
/** Versions kept per snippet; older ones are pruned on save. */
export const SNIPPET_VERSIONS_KEPT = 100;
/** How long an export token from `prepareExport` may be used. */
export const SQL_EXPORT_TOKEN_TTL_SECONDS = 60;
export const SQL_EDITOR_MAX_QUERY_BYTES = 1_000_000;

/** Edge logs page. */
export const LOGS_DEFAULT_LIMIT = 100;
export const LOGS_MAX_LIMIT = 1000;

/** Sign-in rate limit: attempts per window per email and client address. */
export const SIGN_IN_MAX_ATTEMPTS = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * Schemas the platform manages (auth, storage, extensions and the services' own): the policies page keeps
 * their tables and policies read-only, since the platform's services rely on them as they are, and the
 * advisors do not lint them (their findings would be the platform's, not the project's).
 */
export const PROTECTED_SCHEMAS: readonly string[] = [
  'auth',
  'cron',
  'extensions',
  'graphql',
  'graphql_public',
  'information_schema',
  'net',
  'pg_catalog',
  'pgbouncer',
  'pgsodium',
  'pgsodium_masks',
  'pgtle',
  'realtime',
  'storage',
  'supabase_functions',
  'supabase_migrations',
  'vault',
];
