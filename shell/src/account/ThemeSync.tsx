import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { THEMES, type Theme } from '@dash/contracts';
import { useProfileQuery } from '../api/account';
import { isPublicPath } from '../session/returnTo';

/** The last theme of this browser, so signed-out pages and the first paint use it before the profile loads. */
const STORAGE_KEY = 'dash-theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function storedTheme(): Theme | undefined {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return THEMES.find((theme) => theme === value);
  } catch {
    return undefined; // storage disabled
  }
}

/** Light or dark for a theme choice: `system` follows the operating system's preference. */
export function resolveTheme(theme: Theme, systemDark: boolean): 'light' | 'dark' {
  return theme === 'system' ? (systemDark ? 'dark' : 'light') : theme;
}

/**
 * Applies the account's theme to <html data-theme>, whose CSS variables (the sdk's styles.css) colour the
 * shell and every remote. With `system` it follows the OS preference as it changes.
 */
export function ThemeSync() {
  const { pathname } = useLocation();
  // Public pages have no session to ask; they keep this browser's last theme.
  const { data } = useProfileQuery(undefined, { skip: isPublicPath(pathname) });
  const theme = data?.theme ?? storedTheme() ?? 'dark';

  // Before paint, so a page never flashes in the other theme.
  useLayoutEffect(() => {
    try {
      window.localStorage.setItem(STORAGE_KEY, theme);
    } catch {
      // storage disabled: the profile still decides once loaded
    }
    const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
    const apply = () => {
      document.documentElement.dataset.theme = resolveTheme(theme, media?.matches ?? true);
    };
    apply();
    if (theme !== 'system' || !media) return;
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);

  return null;
}
