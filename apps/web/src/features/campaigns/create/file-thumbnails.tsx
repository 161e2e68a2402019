import { Image } from 'react-bootstrap';
import { useObjectUrls } from './use-object-urls';

/** Small previews of the chosen image files (other kinds show by name only). */
export function FileThumbnails({ files }: { files: readonly File[] }) {
  const urls = useObjectUrls(files);
  const shown = files
    .map((file, i) => ({ file, url: urls[i] }))
    .filter((x) => x.url && x.file.type.startsWith('image/'));
  if (shown.length === 0) return null;
  return (
    <div className="d-flex flex-wrap gap-2 mt-2">
      {shown.map(({ file, url }) => (
        <Image
          key={url}
          src={url}
          alt={`${file.name} thumbnail`}
          thumbnail
          style={{ width: 64, height: 64, objectFit: 'cover' }}
        />
      ))}
    </div>
  );
}
