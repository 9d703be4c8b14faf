// Renders the SQL editor area as the shell mounts it, with the current path readable by the tests.
import { screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { renderArea } from '@dash/shell-sdk/testing';
import { SqlEditorRoutes } from '../src/SqlEditorRoutes';
import { REF } from './snippet-fixtures';

function LocationProbe() {
  const location = useLocation();
  return <output aria-label="Current location">{location.pathname}</output>;
}

function AreaWithProbe() {
  return (
    <>
      <SqlEditorRoutes />
      <LocationProbe />
    </>
  );
}

/** Renders the SQL editor area at `url` (under /project/default/sql), with the current path readable. */
export function renderSql(url: string) {
  return renderArea(AreaWithProbe, { mount: 'sql', url: `/project/${REF}/sql${url}` });
}

/** The current path, relative to the SQL editor's mount (`/new`, `/{id}` ...). */
export function currentPath(): string {
  return (screen.getByRole('status', { name: 'Current location' }).textContent ?? '').replace(`/project/${REF}/sql`, '');
}

export async function editor(): Promise<HTMLTextAreaElement> {
  return (await screen.findByRole('textbox', { name: 'SQL query' })) as HTMLTextAreaElement;
}
