/**
 * The SDK's UI primitives, bundled into each app that imports them (this subpath is not shared), so a remote
 * that uses a new or changed primitive brings it along and runs in an older shell. They hold no state of
 * their own; what must be one instance per page (store, toasts, confirm dialog, `baseApi`) is the core,
 * `@dash/shell-sdk`. Their styles are the core's stylesheet.
 */
export { Button, type ButtonProps } from './src/ui/Button';
export { Tooltip } from './src/ui/Tooltip';
export { Modal, ModalActions } from './src/ui/Modal';
export { SidePanel } from './src/ui/SidePanel';
export { ConfirmByTypingDialog } from './src/ui/ConfirmByTyping';
export { MenuButton, MoreIcon, enabledMenuItems, handleMenuKey, type MenuItem } from './src/ui/Menu';
export { Spinner, EmptyState, ErrorPanel, InlineError, NoAccess, Badge, StepsCallout } from './src/ui/States';
export { AreaLayout, MenuSections, PageHeader, type AreaNavItem, type AreaNavSection } from './src/ui/Layout';
export { TextField, SelectField, CountedTextField, FieldError, shownError } from './src/ui/Field';
