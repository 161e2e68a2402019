import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { DEFAULT_COMPANY_NAME } from '@herald/contract';
import { useMyBranding } from '../../api/branding/get-my-branding';

/** Logos are served by the API host by path. */
function assetUrl(path: string): string {
  return /^(https?:)?\/\//.test(path) || path.startsWith('/') ? path : `/${path}`;
}

function BrandName({ name }: { name: string }) {
  return <span className="fs-5 fw-bold text-white text-break">{name}</span>;
}

/** A logo that fails to load is hidden; the company name takes its place. */
function BrandLogo({ src, name }: { src: string; name: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <BrandName name={name} />;
  return (
    <img
      src={src}
      alt={name}
      className="brand-logo"
      width={200}
      height={50}
      onError={() => setFailed(true)}
    />
  );
}

/**
 * The side menu's branding: the logo, else the company name; a placeholder bar while
 * it loads. A failure is only logged and falls back to the default name. The browser
 * tab's title follows the company name.
 */
export function Brand() {
  const { data, error, isPending } = useMyBranding();

  useEffect(() => {
    if (error) console.error('Failed to load branding', error);
  }, [error]);

  // The browser tab shows the company name (the default while branding loads or fails).
  const title = isPending ? null : data?.companyName || DEFAULT_COMPANY_NAME;
  useEffect(() => {
    if (title === null) return;
    document.title = title;
    return () => {
      document.title = DEFAULT_COMPANY_NAME;
    };
  }, [title]);

  if (isPending) {
    return (
      <div className="brand-box">
        <div className="brand-placeholder" role="status" aria-label="Loading branding" />
      </div>
    );
  }
  const name = data?.companyName || DEFAULT_COMPANY_NAME;
  const logo = data?.companyLogo ? assetUrl(data.companyLogo) : null;
  return (
    <Link to="/" className="brand-box text-decoration-none" aria-label={`${name} home`}>
      {logo ? <BrandLogo key={logo} src={logo} name={name} /> : <BrandName name={name} />}
    </Link>
  );
}
