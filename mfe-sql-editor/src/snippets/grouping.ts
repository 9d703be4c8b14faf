import type { SqlSnippet } from '@dash/contracts';

/** The sidebar's sections. Favorites are the member's own favourite snippets; Private their personal ones; Project the shared ones. */
export type SectionName = 'favorites' | 'private' | 'project';
/** Range selection stays within favourites or within the rest (shell spec, section 4). */
export type SelectionGroup = 'favorites' | 'others';

export interface Sections {
  favorites: SqlSnippet[];
  private: SqlSnippet[];
  project: SqlSnippet[];
}

export function isOwn(snippet: SqlSnippet, userId: string | undefined): boolean {
  return userId !== undefined && snippet.owner_id === userId;
}

/** The favourite flag belongs to the snippet's owner: another member's favourite is no favourite of yours. */
export function isFavorite(snippet: SqlSnippet, userId: string | undefined): boolean {
  return snippet.content.favorite && isOwn(snippet, userId);
}

export function selectionGroupOf(snippet: SqlSnippet, userId: string | undefined): SelectionGroup {
  return isFavorite(snippet, userId) ? 'favorites' : 'others';
}

/** Search is trimmed and case-insensitive on the name (shell spec, section 5). */
export function matchesSearch(snippet: SqlSnippet, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return needle === '' || snippet.name.toLowerCase().includes(needle);
}

/** The sections of the (already ordered) list, after the search. */
export function groupSnippets(snippets: readonly SqlSnippet[], userId: string | undefined, search = ''): Sections {
  const sections: Sections = { favorites: [], private: [], project: [] };
  for (const snippet of snippets) {
    if (!matchesSearch(snippet, search)) continue;
    if (isFavorite(snippet, userId)) sections.favorites.push(snippet);
    else if (snippet.visibility === 'user') sections.private.push(snippet);
    else sections.project.push(snippet);
  }
  return sections;
}

/** The snippets in the order the sidebar shows them: favourites, private, project. */
export function sidebarOrder(snippets: readonly SqlSnippet[], userId: string | undefined): SqlSnippet[] {
  const { favorites, private: own, project } = groupSnippets(snippets, userId);
  return [...favorites, ...own, ...project];
}

/** The most recently changed snippet (the SQL editor's landing page), if any. */
export function mostRecent(snippets: readonly SqlSnippet[]): SqlSnippet | undefined {
  let best: SqlSnippet | undefined;
  for (const s of snippets) if (!best || Date.parse(s.updated_at) > Date.parse(best.updated_at)) best = s;
  return best;
}
