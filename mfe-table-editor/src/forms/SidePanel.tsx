import type { ComponentProps } from 'react';
import { SidePanel as DashSidePanel } from '@dash/shell-sdk/ui';
import './forms.css';

/**
 * The SDK's side panel as the table editor's forms use it (column, table, CSV import, row): marked
 * `te-panel` for the editor's form rules inside it (forms.css).
 */
export function SidePanel(props: Omit<ComponentProps<typeof DashSidePanel>, 'className'>) {
  return <DashSidePanel {...props} className="te-panel" />;
}
