import { Navigate, Route, Routes } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { NoTableSelected } from './pages/NoTableSelected';
import { TableDetails } from './pages/TableDetails';
import { TableEditorLayout } from './pages/TableEditorLayout';
import { editorPaths } from './paths';
import './table-editor.css';

function ToIndex() {
  return <Navigate to={editorPaths.index(useProjectRef())} replace />;
}

/** Descendant routes under /project/:ref/editor. */
export function TableEditorRoutes() {
  return (
    <div className="te-root" data-build={__DASH_BUILD_LABEL__}>
      <Routes>
        <Route element={<TableEditorLayout />}>
          <Route index element={<NoTableSelected />} />
          <Route path=":tableId" element={<TableDetails />} />
        </Route>
        <Route path="*" element={<ToIndex />} />
      </Routes>
    </div>
  );
}
