import { Button } from '@dash/shell-sdk/ui';
import './pager.css';

/** Previous / "Page n of m" / Next under a paged list; shown only when there is more than one page. */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <div className="pager">
      <Button size="sm" onClick={() => onPage(page - 1)} disabled={page === 0}>
        Previous
      </Button>
      <span>
        Page {page + 1} of {pages}
      </span>
      <Button size="sm" onClick={() => onPage(page + 1)} disabled={page + 1 >= pages}>
        Next
      </Button>
    </div>
  );
}
