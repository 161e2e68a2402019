import { publicImagesRoutes } from '../../plugins/public-images.js';
import { imageContentType, imagePath, isImageName } from './announcement-files.js';

/** GET /api/files/announcements/:name: announcement images, shown by the dialog in an <img>. */
export const announcementFilesRoutes = publicImagesRoutes({
  url: '/files/announcements/:name',
  isName: isImageName,
  pathOf: imagePath,
  contentType: imageContentType,
});
