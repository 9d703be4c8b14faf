import type { ReactNode } from 'react';
import { previewKind } from './preview';

function Svg({ children, size = 16 }: { children: ReactNode; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      {children}
    </svg>
  );
}

export const FolderIcon = ({ open }: { open?: boolean }) => (
  <Svg>
    <path d="M1.8 4.2c0-.6.5-1.1 1.1-1.1h3l1.4 1.5h5.8c.6 0 1.1.5 1.1 1.1v6.6c0 .6-.5 1.1-1.1 1.1H2.9c-.6 0-1.1-.5-1.1-1.1z" fill={open ? 'currentColor' : 'none'} fillOpacity={open ? 0.18 : 0} />
  </Svg>
);

/** A file's icon, drawn after its kind (image, video, audio, PDF, text, other). */
export function FileIcon({ mimetype }: { mimetype: string | null }) {
  const kind = previewKind(mimetype);
  return (
    <Svg>
      <path d="M4 1.8h5.2L12.5 5v9.2H4z" />
      <path d="M9 1.8V5.2h3.5" />
      {kind === 'image' && <path d="M5.6 12.2l2-2.4 1.4 1.5 1-1 1.3 1.9" />}
      {kind === 'video' && <path d="M7 8.6v3l2.6-1.5z" />}
      {kind === 'audio' && <path d="M7.2 12.2V8.4l3-.7v3.6M7.2 12.2a.9.9 0 1 1-1.2-.9M10.2 11.3a.9.9 0 1 1-1.2-.9" />}
      {kind === 'pdf' && <path d="M5.8 12.4h4.6M5.8 10.4h4.6" />}
      {kind === 'text' && <path d="M5.8 8.4h4.6M5.8 10.2h4.6M5.8 12h3" />}
    </Svg>
  );
}

export const ChevronIcon = () => (
  <Svg size={12}>
    <path d="M6 3.5L10.5 8 6 12.5" />
  </Svg>
);

export const ReloadIcon = () => (
  <Svg>
    <path d="M13.2 8a5.2 5.2 0 1 1-1.6-3.8M13.2 2.6v2.8h-2.8" />
  </Svg>
);

export const SearchIcon = () => (
  <Svg>
    <circle cx="7" cy="7" r="4.4" />
    <path d="M10.3 10.3l3.4 3.4" />
  </Svg>
);

export const CloseIcon = () => (
  <Svg size={14}>
    <path d="M4 4l8 8M12 4l-8 8" />
  </Svg>
);

export const UploadIcon = () => (
  <Svg>
    <path d="M8 10.5V2.5M5 5.3L8 2.3l3 3M2.8 10.5v2.7h10.4v-2.7" />
  </Svg>
);

export const FolderPlusIcon = () => (
  <Svg>
    <path d="M1.8 4.2c0-.6.5-1.1 1.1-1.1h3l1.4 1.5h5.8c.6 0 1.1.5 1.1 1.1v6.6c0 .6-.5 1.1-1.1 1.1H2.9c-.6 0-1.1-.5-1.1-1.1zM8 7v4M6 9h4" />
  </Svg>
);

export const CheckIcon = () => (
  <Svg size={12}>
    <path d="M3 8.5l3.2 3L13 4.5" />
  </Svg>
);

export const WarningIcon = () => (
  <Svg size={14}>
    <path d="M8 2l6.2 11H1.8zM8 6.5v3M8 11.4v.1" />
  </Svg>
);
