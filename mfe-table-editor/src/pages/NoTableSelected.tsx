import { EmptyState } from '@dash/shell-sdk/ui';

export function NoTableSelected() {
  return (
    <div className="te-placeholder">
      <EmptyState
        title="Select a table from the list to view its data"
        description="Tables, views, materialized views, foreign and partitioned tables of the chosen schema are listed on the left."
      />
    </div>
  );
}
