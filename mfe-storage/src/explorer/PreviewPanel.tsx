import { useEffect, useEffectEvent, useState } from 'react';
import { useDispatch } from 'react-redux';
import { errorMessage, useToast, type AppDispatch } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { formatBytes, Messages, STORAGE_PREVIEW_PANEL_WIDTH, STORAGE_PREVIEW_URL_EXPIRY_SECONDS } from '@dash/contracts';
import { fetchPreviewText, objectsApi } from '../api/objects';
import { formatDateTime } from '../format';
import { absoluteUrl } from './browser';
import { useExplorer, useWriteGate } from './controller';
import { CloseIcon } from './icons';
import { ItemIcon } from './items';
import { Menu, belowElement, type MenuPosition } from './Menu';
import { useUrlEntries } from './menus';
import { cachedPreviewUrl, previewCacheKey, previewPlan, rememberPreviewUrl, withTimestamp, type PreviewKind } from './preview';
import { explorerActions as act, previewItem, type ExplorerItem } from './state';
import { ExplorerTexts } from './texts';

type UrlState = { status: 'loading' } | { status: 'ready'; url: string } | { status: 'failed' };

/**
 * The URL a file is previewed from: signed for a year in a private bucket, the public URL with a
 * timestamp in a public one; kept in memory per object version so reopening a file asks nothing.
 */
function usePreviewUrl(item: ExplorerItem, wanted: boolean): UrlState {
  const { ref, bucket } = useExplorer();
  const appDispatch = useDispatch<AppDispatch>();
  const toast = useToast();
  const key = previewCacheKey(`${ref}/${bucket.id}`, item);
  const [state, setState] = useState<UrlState>(() => {
    const cached = cachedPreviewUrl(key, Date.now());
    return cached ? { status: 'ready', url: cached } : { status: 'loading' };
  });

  // An effect event: the URL is fetched when the object (its cache key) or `wanted` changes, with the
  // latest bucket, item and state, not whenever those objects are made anew.
  const fetchUrl = useEffectEvent((isLive: () => boolean) => {
    if (state.status === 'ready') return;
    const target = { ref, bucketId: bucket.id, path: item.path };
    (async () => {
      try {
        const url = bucket.public
          ? withTimestamp((await appDispatch(objectsApi.endpoints.storagePublicUrl.initiate(target)).unwrap()).publicUrl, Date.parse(item.updatedAt ?? '') || Date.now())
          : absoluteUrl((await appDispatch(objectsApi.endpoints.storageSignUrl.initiate({ ...target, expiresIn: STORAGE_PREVIEW_URL_EXPIRY_SECONDS })).unwrap()).signedUrl);
        rememberPreviewUrl(key, { id: item.id ?? item.path, url, expiresIn: STORAGE_PREVIEW_URL_EXPIRY_SECONDS, fetchedAt: Date.now() });
        if (isLive()) setState({ status: 'ready', url });
      } catch (error) {
        if (!isLive()) return;
        setState({ status: 'failed' });
        const message = errorMessage(error);
        toast('error', bucket.public ? Messages.publicPreviewFailed(message) : Messages.signedPreviewFailed(message));
      }
    })();
  });

  useEffect(() => {
    if (!wanted) return;
    let live = true;
    fetchUrl(() => live);
    return () => {
      live = false;
    };
  }, [key, wanted]);

  return state;
}

function TextPreview({ url, name }: { url: string; name: string }) {
  const [text, setText] = useState<{ status: 'loading' } | { status: 'ready'; text: string } | { status: 'failed'; message: string }>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    fetchPreviewText(url, controller.signal).then(
      (value) => setText({ status: 'ready', text: value }),
      (error: unknown) => {
        if (!controller.signal.aborted) setText({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [url]);
  if (text.status === 'loading') return <PreviewLoading />;
  if (text.status === 'failed') return <p className="sx-preview__message">{text.message}</p>;
  return (
    <pre className="sx-preview__text" aria-label={`Contents of ${name}`}>
      {text.text}
    </pre>
  );
}

function PreviewLoading() {
  return (
    <div className="sx-preview__message" role="status">
      <span className="dash-spinner" aria-hidden />
      <span className="sx-visually-hidden">Loading preview</span>
    </div>
  );
}

function Media({ kind, url, item }: { kind: PreviewKind; url: string; item: ExplorerItem }) {
  switch (kind) {
    case 'image':
      return <img className="sx-preview__image" src={url} alt={item.name} />;
    case 'video':
      return <video className="sx-preview__video" src={url} controls aria-label={item.name} />;
    case 'audio':
      return <audio className="sx-preview__audio" src={url} controls aria-label={item.name} />;
    case 'pdf':
      return <iframe className="sx-preview__pdf" src={url} title={item.name} />;
    case 'text':
      return <TextPreview url={url} name={item.name} />;
  }
}

function PreviewBody({ item }: { item: ExplorerItem }) {
  const plan = previewPlan(item);
  const url = usePreviewUrl(item, plan.kind === 'fetch');
  if (plan.kind === 'skipped') return <p className="sx-preview__message">{Messages.previewTooLarge}</p>;
  if (plan.kind === 'none') return <p className="sx-preview__message">{ExplorerTexts.previewUnavailable}</p>;
  if (url.status === 'loading') return <PreviewLoading />;
  if (url.status === 'failed') return <p className="sx-preview__message">{ExplorerTexts.previewFailed}</p>;
  return <Media kind={plan.as} url={url.url} item={item} />;
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="sx-preview__detail">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function FilePreview({ item }: { item: ExplorerItem }) {
  const { bucket, dispatch, actions, setDialog } = useExplorer();
  const gate = useWriteGate();
  const urlEntries = useUrlEntries(item);
  const [urlMenuAt, setUrlMenuAt] = useState<MenuPosition | null>(null);

  return (
    <aside className="sx-preview" style={{ width: STORAGE_PREVIEW_PANEL_WIDTH }} aria-label="File preview" data-testid="explorer-preview">
      <header className="sx-preview__header">
        <ItemIcon item={item} />
        <h2 className="sx-preview__title" title={item.name}>
          {item.name}
        </h2>
        <button type="button" className="sx-icon-button" aria-label="Close preview" onClick={() => dispatch(act.previewClosed())}>
          <CloseIcon />
        </button>
      </header>
      <div className="sx-preview__media">
        <PreviewBody item={item} />
      </div>
      <dl className="sx-preview__details">
        <Detail label="Type" value={item.mimetype ?? '—'} />
        <Detail label="Size" value={item.size === null ? '—' : formatBytes(item.size)} />
        <Detail label="Added on" value={item.createdAt ? formatDateTime(item.createdAt) : '—'} />
        <Detail label="Last modified" value={item.updatedAt ? formatDateTime(item.updatedAt) : '—'} />
      </dl>
      <div className="sx-preview__actions">
        <Button size="sm" onClick={() => void actions.downloadFile(item)} {...gate(Messages.needPermissionsGeneric)}>
          Download
        </Button>
        {bucket.public ? (
          <Button size="sm" onClick={() => void actions.copyUrl(item)}>
            Copy URL
          </Button>
        ) : (
          <Button size="sm" aria-haspopup="menu" aria-expanded={urlMenuAt !== null} onClick={(event) => setUrlMenuAt(urlMenuAt ? null : belowElement(event.currentTarget))}>
            Get URL
          </Button>
        )}
        <Button size="sm" variant="danger" onClick={() => setDialog({ kind: 'delete', items: [item] })} {...gate(Messages.needPermissionsDeleteFile)}>
          Delete
        </Button>
      </div>
      {urlMenuAt && <Menu label={`Get URL for ${item.name}`} position={urlMenuAt} entries={urlEntries} onClose={() => setUrlMenuAt(null)} />}
    </aside>
  );
}

/** The 450 px side panel of the file being previewed. */
export function PreviewPanel() {
  const { state } = useExplorer();
  const found = previewItem(state);
  return found ? <FilePreview key={`${found.item.path}:${found.item.updatedAt}`} item={found.item} /> : null;
}
