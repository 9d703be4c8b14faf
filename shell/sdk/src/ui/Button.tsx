import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Tooltip } from './Tooltip';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'default' | 'danger' | 'ghost';
  size?: 'sm' | 'md';
  icon?: ReactNode;
  loading?: boolean;
  /** Why the button is disabled; shown as a tooltip (e.g. a missing permission). Disables the button. */
  disabledReason?: string;
}

export function Button({ variant = 'default', size = 'md', icon, loading, disabledReason, className, children, ...rest }: ButtonProps) {
  const button = (
    <button
      type="button"
      {...rest}
      disabled={rest.disabled || loading || Boolean(disabledReason)}
      aria-busy={loading || undefined}
      className={['dash-btn', `dash-btn--${variant}`, `dash-btn--${size}`, className].filter(Boolean).join(' ')}
    >
      {loading ? <span className="dash-spinner dash-spinner--inline" aria-hidden /> : icon}
      {children}
    </button>
  );
  return disabledReason ? <Tooltip content={disabledReason}>{button}</Tooltip> : button;
}
