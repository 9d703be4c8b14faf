import './ui/styles.css';

export { baseApi, platformApi, routeRequest, errorMessage, sessionExpired } from './api';
export { rootReducer, createStore, type DashStore, type RootState, type AppDispatch, type LazyLoadedSlices } from './store';
export { toastsSlice, showToast, dismissToast, selectToasts, type Toast, type ToastKind } from './toasts';
export { useProjectRef, usePermission, useToast, useConfirm, useDebouncedValue, useDashConfig, useFeatureFlag } from './hooks';
export { ConfirmProvider, type ConfirmOptions } from './confirm';
export { Button, type ButtonProps } from './ui/Button';
export { Tooltip } from './ui/Tooltip';
export { Modal, ModalActions } from './ui/Modal';
export { ConfirmByTypingDialog } from './ui/ConfirmByTyping';
export { MenuButton, MoreIcon, enabledMenuItems, handleMenuKey, type MenuItem } from './ui/Menu';
export { Spinner, EmptyState, ErrorPanel, InlineError, NoAccess, Badge } from './ui/States';
export { AreaLayout, MenuSections, PageHeader, type AreaNavItem, type AreaNavSection } from './ui/Layout';
export { TextField, SelectField, CountedTextField, FieldError, shownError } from './ui/Field';
export { Toaster } from './ui/Toaster';

