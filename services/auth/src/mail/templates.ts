/** The values an email template may use, as GoTrue's templates name them. */
export interface TemplateValues {
  ConfirmationURL: string;
  Token: string;
  TokenHash: string;
  SiteURL: string;
  Email: string;
  NewEmail: string;
  RedirectTo: string;
  Data: Record<string, unknown>;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/**
 * Renders a template's `{{ .Name }}` and `{{ .Data.key }}` actions (Go template syntax, the subset auth
 * templates use). Values are HTML-escaped, as Go's html/template does in text and attributes, so an address
 * or metadata from a sign-up cannot add markup to the mail. An action naming nothing known renders empty;
 * `{{ if .X }}...{{ else }}...{{ end }}` keeps the branch whose value is non-empty.
 */
export function renderTemplate(template: string, values: TemplateValues, html = true): string {
  const lookup = (path: string): string => {
    const parts = path.split('.').filter(Boolean);
    let value: unknown = values;
    for (const part of parts) {
      if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return '';
      value = (value as Record<string, unknown>)[part];
    }
    if (value === null || value === undefined) return '';
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    return html ? escapeHtml(text) : text;
  };
  // Go's trim markers: `{{-` eats the whitespace before the action, `-}}` the whitespace after it.
  const trimmed = template.replace(/\s*\{\{-\s/g, '{{ ').replace(/\s-\}\}\s*/g, ' }}');
  const withConditions = trimmed.replace(
    /\{\{\s*if\s+\.([A-Za-z0-9_.]+)\s*\}\}([\s\S]*?)(?:\{\{\s*else\s*\}\}([\s\S]*?))?\{\{\s*end\s*\}\}/g,
    (_all, path: string, then: string, otherwise: string | undefined) => (lookup(path) !== '' ? then : (otherwise ?? '')),
  );
  return withConditions.replace(/\{\{\s*\.([A-Za-z0-9_.]+)\s*\}\}/g, (_all, path: string) => lookup(path));
}
