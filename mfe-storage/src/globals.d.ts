declare module '*.css';
/** Replaced at build time by the Module Federation preset (DASH_BUILD_LABEL). */
declare const __DASH_BUILD_LABEL__: string;
