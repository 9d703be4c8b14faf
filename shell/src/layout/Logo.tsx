import { useId } from 'react';

/** The product mark and name. */
export function Logo({ compact = false }: { compact?: boolean }) {
  const gradient = useId();
  return (
    <span className="shell-logo">
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden>
        <defs>
          <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#3ecf8e" />
            <stop offset="1" stopColor="#24b47e" />
          </linearGradient>
        </defs>
        <ellipse cx="12" cy="5.5" rx="8" ry="3" fill={`url(#${gradient})`} />
        <path d="M4 5.5v6c0 1.7 3.6 3 8 3s8-1.3 8-3v-6c0 1.7-3.6 3-8 3s-8-1.3-8-3Z" fill="#24b47e" opacity="0.85" />
        <path d="M4 12.5v6c0 1.7 3.6 3 8 3s8-1.3 8-3v-6c0 1.7-3.6 3-8 3s-8-1.3-8-3Z" fill="#1b8a60" opacity="0.9" />
      </svg>
      {!compact && <span className="shell-logo__name">Dashboard</span>}
    </span>
  );
}
