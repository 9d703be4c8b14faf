/**
 * The SDK's core: what the shell provides to every remote as one shared instance (`baseApi`, the root
 * reducer and store, toasts, the confirm dialog's context, the hooks over them, the stylesheet). Its
 * version is SDK_VERSION; a remote states the core range it needs on `@dash/shell-sdk` in its package.json
 * and the shell checks it before loading the remote. Everything else the SDK offers is a subpath that each
 * app bundles (`/ui`, `/routes`, `/testing`).
 */
import './ui/styles.css';

export { SDK_VERSION } from './version';

export { baseApi, platformApi, errorMessage, servicesUnreachable, sessionExpired } from './api';
// Remotes built before the route helpers take `routeRequest` from the core; apps now import it, with
// `routeQuery` and `routeMutation`, from `@dash/shell-sdk/routes`, bundled.
export { routeRequest } from './routes';
export { rootReducer, createStore, type DashStore, type RootState, type AppDispatch, type LazyLoadedSlices } from './store';
export { toastsSlice, showToast, dismissToast, selectToasts, type Toast, type ToastKind } from './toasts';
export { useProjectRef, usePermission, useToast, useConfirm, useDebouncedValue, useDashConfig, useFeatureFlag } from './hooks';
export { ConfirmProvider, type ConfirmOptions } from './confirm';
// The UI primitives are `@dash/shell-sdk/ui`, bundled by each app. The core still offers them for remotes
// built before SDK 1.1.0, which take them from the shell; drop these at the next major version.
export { Button, type ButtonProps } from './ui/Button';
export { Tooltip } from './ui/Tooltip';
export { Modal, ModalActions } from './ui/Modal';
export { ConfirmByTypingDialog } from './ui/ConfirmByTyping';
export { MenuButton, MoreIcon, enabledMenuItems, handleMenuKey, type MenuItem } from './ui/Menu';
export { Spinner, EmptyState, ErrorPanel, InlineError, NoAccess, Badge } from './ui/States';
export { AreaLayout, MenuSections, PageHeader, type AreaNavItem, type AreaNavSection } from './ui/Layout';
export { TextField, SelectField, CountedTextField, FieldError, shownError } from './ui/Field';
export { Toaster } from './ui/Toaster';

