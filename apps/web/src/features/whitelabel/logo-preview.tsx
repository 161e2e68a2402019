import { useEffect, useState } from 'react';
import { DEFAULT_COMPANY_NAME, ui } from '@herald/contract';

/** An object URL for the chosen file, revoked when the file changes or the preview goes. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

interface LogoPreviewProps {
  /** The file chosen but not saved yet; it wins over the stored logo. */
  file: File | null;
  /** The stored logo URL, or null (or when it is being removed). */
  storedUrl: string | null;
  companyName: string;
}

/**
 * How the side menu will show the branding, before saving: the chosen or stored
 * logo at most 200x50 on the menu's dark background, else the company name. A logo that does not
 * load is hidden and the name shows instead, as in the layout.
 */
export function LogoPreview({ file, storedUrl, companyName }: LogoPreviewProps) {
  const chosenUrl = useObjectUrl(file);
  const src = chosenUrl ?? storedUrl;
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const name = companyName.trim() || DEFAULT_COMPANY_NAME;
  const showLogo = src !== null && failedSrc !== src;
  return (
    <figure className="mb-3" aria-label={ui.whitelabel.logoPreview}>
      <figcaption className="form-label d-block">{ui.whitelabel.logoPreview}</figcaption>
      <div className="whitelabel-preview d-flex align-items-center rounded p-3">
        {showLogo ? (
          <img
            src={src}
            alt={`${name} logo preview`}
            className="brand-logo"
            onError={() => setFailedSrc(src)}
          />
        ) : (
          <span className="fs-5 fw-bold text-white text-break">{name}</span>
        )}
      </div>
      {!src && <div className="form-text">{ui.whitelabel.noLogo}</div>}
    </figure>
  );
}
