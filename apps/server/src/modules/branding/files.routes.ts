import { publicImagesRoutes } from '../../plugins/public-images.js';
import { LOGOS_FOLDER, isLogoName, logoContentType } from './logo-files.js';

/** GET /api/files/logos/:name: whitelabel logos, shown by the layout in an <img>. */
export const filesRoutes = publicImagesRoutes({
  url: '/files/logos/:name',
  isName: isLogoName,
  folder: LOGOS_FOLDER,
  contentType: logoContentType,
});
