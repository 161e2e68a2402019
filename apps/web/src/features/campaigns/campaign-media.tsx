import { useEffect, useState } from 'react';
import { Button, ListGroup, Spinner } from 'react-bootstrap';
import { ui, type CampaignFile } from '@herald/contract';
import { formatBytes } from '../../lib/format';
import { downloadCampaignFile, getCampaignFile } from '../../api/campaigns/get-campaign-file';

const FILE_KIND_LABELS: Record<CampaignFile['kind'], string> = {
  dp: 'DP',
  singleCreative: 'Single creative',
  image: 'Image',
  pdf: 'PDF',
  video: 'Video',
  audio: 'Audio',
};

type Loaded = { url: string } | { failed: true } | null;

/**
 * The file as an object URL: media routes need the bearer token, which an <img> or <video>
 * cannot send, so the bytes are fetched and the URL is revoked when the preview goes.
 */
function useFileUrl(campaignId: string, file: CampaignFile): Loaded {
  const [loaded, setLoaded] = useState<{ key: string; value: Loaded }>({ key: '', value: null });
  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    getCampaignFile(campaignId, file, controller.signal).then(
      ({ blob }) => {
        url = URL.createObjectURL(blob);
        setLoaded({ key: file.id, value: { url } });
      },
      () => {
        if (!controller.signal.aborted) setLoaded({ key: file.id, value: { failed: true } });
      },
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [campaignId, file]);
  return loaded.key === file.id ? loaded.value : null;
}

/** An image, video or audio file shown as itself. */
function MediaPreview({ campaignId, file }: { campaignId: string; file: CampaignFile }) {
  const loaded = useFileUrl(campaignId, file);
  if (loaded === null)
    return <Spinner size="sm" role="status" aria-label={`Loading ${file.name}`} />;
  if ('failed' in loaded)
    return <span className="text-danger small">{ui.campaigns.mediaFailed}</span>;
  if (file.kind === 'video') {
    return (
      <video controls preload="metadata" src={loaded.url} className="campaign-media-preview">
        <track kind="captions" />
      </video>
    );
  }
  if (file.kind === 'audio') {
    return (
      <audio
        controls
        preload="metadata"
        src={loaded.url}
        aria-label={file.name}
        className="campaign-media-audio"
      />
    );
  }
  return <img src={loaded.url} alt={file.name} className="campaign-media-preview img-thumbnail" />;
}

/** A PDF: its name and a link that downloads it (a browser would not preview it safely here). */
function PdfLink({ campaignId, file }: { campaignId: string; file: CampaignFile }) {
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const open = () => {
    setState('busy');
    downloadCampaignFile(campaignId, file).then(
      () => setState('idle'),
      () => setState('failed'),
    );
  };
  return (
    <span className="d-inline-flex align-items-center gap-2 flex-wrap">
      <Button variant="link" className="p-0 text-break" onClick={open} disabled={state === 'busy'}>
        {file.name}
      </Button>
      {state === 'busy' && <Spinner size="sm" aria-hidden="true" />}
      {state === 'failed' && <span className="text-danger small">{ui.campaigns.mediaFailed}</span>}
    </span>
  );
}

/** The campaign's media as it will be sent: pictures, players, and the PDF's name and link. */
export function CampaignMedia({
  campaignId,
  files,
}: {
  campaignId: string;
  files: CampaignFile[];
}) {
  if (files.length === 0) return <p className="text-muted small">No files.</p>;
  return (
    <ListGroup className="mb-3" aria-label="Files">
      {files.map((f) => (
        <ListGroup.Item key={f.id} data-testid={`campaign-file-${f.kind}`}>
          <div className="d-flex justify-content-between gap-2 mb-1">
            <span className="text-break">
              <span className="text-muted me-2">{FILE_KIND_LABELS[f.kind]}</span>
              {f.kind === 'pdf' ? <PdfLink campaignId={campaignId} file={f} /> : f.name}
            </span>
            <span className="text-muted text-nowrap small">{formatBytes(f.size)}</span>
          </div>
          {f.kind !== 'pdf' && <MediaPreview campaignId={campaignId} file={f} />}
        </ListGroup.Item>
      ))}
    </ListGroup>
  );
}
