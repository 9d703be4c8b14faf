/*
 * The few browser facilities the workbench needs, in one place: a run id, a download, the platform's
 * shortcut names.
 */

/**
 * A random UUID (v4) for a run. `crypto.randomUUID` exists only in secure contexts (https, localhost);
 * `getRandomValues` everywhere, so a dashboard served over plain http on a LAN address still cancels.
 */
export function newRunId(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Starts a download of a same-origin path with a hidden link: the browser streams the reply to disk
 * (the server names the file), and the page stays where it is, even when the reply is an error.
 */
export function startDownload(path: string): void {
  const link = document.createElement('a');
  link.href = path;
  link.download = '';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

export const isMac = (): boolean => {
  const nav = globalThis.navigator as (Navigator & { userAgentData?: { platform?: string } }) | undefined;
  const platform = nav?.userAgentData?.platform ?? nav?.platform ?? '';
  return /mac|iphone|ipad/i.test(platform);
};

/** "⌘↵" on a Mac, "Ctrl+↵" elsewhere. */
export const runShortcut = (): string => (isMac() ? '⌘↵' : 'Ctrl+↵');
export const runShortcutName = (): string => (isMac() ? 'Cmd+Enter' : 'Ctrl+Enter');
