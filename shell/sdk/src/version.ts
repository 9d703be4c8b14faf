/**
 * The version of the SDK's core as this build provides it (kept equal to package.json by a test). A remote
 * states the core it needs as a caret range on `@dash/shell-sdk` in its package.json; the shell compares
 * that range with this before loading the remote. Raise the minor version when the core gains something
 * a remote may use, the major when it changes or loses something.
 */
export const SDK_VERSION = '1.1.0';
