import { useId, useState, type ReactNode } from 'react';

/**
 * Shows `content` on hover or focus. Wraps its child in a span so it also works on disabled buttons,
 * which fire no pointer events themselves.
 */
export function Tooltip({ content, children }: { content: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <span
      className="dash-tooltip-anchor"
      aria-describedby={id}
      tabIndex={0}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={() => setOpen(false)}
    >
      {children}
      <span role="tooltip" id={id} className="dash-tooltip" hidden={!open}>
        {content}
      </span>
    </span>
  );
}
