import { useState } from 'react';
import { NavLink } from 'react-router-dom';
import { useFeatureFlag, usePermission, useProjectRef } from '@dash/shell-sdk';
import { MenuButton, Spinner } from '@dash/shell-sdk/ui';
import { Permission, type EventCollection } from '@dash/contracts';
import { useCollectionsQuery } from '../api/collections';
import { collectionPath, CreateCollectionDialog, DeleteCollectionDialog, RenameCollectionDialog } from './CollectionDialogs';
import './collections.css';

type Dialog = { kind: 'create' } | { kind: 'rename' | 'delete'; collection: EventCollection } | null;

export const NO_WRITE_PERMISSION = 'You need additional permissions to manage collections';

/**
 * The logs menu's "Collections" section (the area's `menuExtra`): the project's event collections, each
 * with rename and delete, a create button, and the access tokens ingest uses. Only with the `warehouse` flag.
 */
export function CollectionsMenu() {
  const warehouse = useFeatureFlag('warehouse');
  return warehouse ? <CollectionsSection /> : null;
}

const linkClass = ({ isActive }: { isActive: boolean }) => `dash-area__link${isActive ? ' is-active' : ''}`;

function CollectionsSection() {
  const ref = useProjectRef();
  const { data, isLoading, isError } = useCollectionsQuery({ ref });
  const { can } = usePermission(Permission.TenantSqlAdminWrite);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const denied = can ? undefined : NO_WRITE_PERMISSION;

  return (
    <nav className="dash-area__section logs-collections" aria-label="Collections">
      <div className="logs-collections__header">
        <h3 className="dash-area__section-title">Collections</h3>
        <button
          type="button"
          className="logs-collections__add"
          aria-label="Create collection"
          title={denied ?? 'Create collection'}
          disabled={!can}
          onClick={() => setDialog({ kind: 'create' })}
        >
          +
        </button>
      </div>
      {isLoading && <Spinner label="Loading collections" />}
      {isError && <p className="logs-collections__note">Failed to load collections</p>}
      {data?.length === 0 && <p className="logs-collections__note">No collections yet</p>}
      {data?.map((collection) => (
        <div key={collection.token} className="logs-collections__item">
          <NavLink to={collectionPath(ref, collection.token)} className={linkClass}>
            <span className="logs-collections__name">{collection.name}</span>
          </NavLink>
          <MenuButton
            label={`Actions for collection ${collection.name}`}
            items={[
              { label: 'Rename', onSelect: () => setDialog({ kind: 'rename', collection }), disabledReason: denied },
              { label: 'Delete', danger: true, onSelect: () => setDialog({ kind: 'delete', collection }), disabledReason: denied },
            ]}
          />
        </div>
      ))}
      <NavLink to={`/project/${ref}/logs/collections/access-tokens`} className={linkClass}>
        Access tokens
      </NavLink>
      {dialog?.kind === 'create' && <CreateCollectionDialog onClose={close} />}
      {dialog?.kind === 'rename' && <RenameCollectionDialog collection={dialog.collection} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteCollectionDialog collection={dialog.collection} onClose={close} />}
    </nav>
  );
}
