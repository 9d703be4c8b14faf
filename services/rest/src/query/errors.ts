/**
 * PostgREST's error body (`code`, `message`, `details`, `hint`) and the HTTP status it is sent with. The
 * codes are PostgREST's own (`PGRST1xx` for requests it cannot read, `PGRST2xx` for the schema cache), so
 * clients that branch on them (postgrest-js, supabase-js) behave as they do against PostgREST.
 */
export class PostgrestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Text, or for PGRST201 the list of candidate relationships. */
    readonly details: string | Record<string, string>[] | null = null,
    readonly hint: string | null = null,
  ) {
    super(message);
    this.name = 'PostgrestError';
  }

  /** The JSON body PostgREST answers with. */
  toJSON(): { code: string; details: string | Record<string, string>[] | null; hint: string | null; message: string } {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

/**
 * A query string parameter that does not parse (PGRST100). PostgREST's message is the parser's name for the
 * input followed by the position, as its parser library prints it; the details say what was found and
 * what was expected there.
 */
export function parseError(what: string, input: string, index: number, details: string): PostgrestError {
  return new PostgrestError(400, 'PGRST100', `"failed to parse ${what} (${input})" (line 1, column ${index + 1})`, details);
}

/** A `limit`/`offset`/`Range` that selects nothing PostgREST can serve (PGRST103, 416). */
export function rangeError(details: string): PostgrestError {
  return new PostgrestError(416, 'PGRST103', 'Requested range not satisfiable', details);
}
